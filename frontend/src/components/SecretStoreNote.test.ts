// The settings' note on where secrets are kept: the keyring, or wisp.json with the
// keyring's answer, and the secrets the file says the keyring keeps but this run
// could not read.

import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import type { SecretStore } from '../api'
import { SecretStoreNote } from './SecretStoreNote'

const path = '/home/u/.local/state/wisp/wisp.json'
const html = (store: SecretStore | null) => renderToStaticMarkup(createElement(SecretStoreNote, { store, path }))
const text = (store: SecretStore | null) => html(store).replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'")

describe('SecretStoreNote', () => {
  it('says the keyring keeps the secrets, under which service', () => {
    const store: SecretStore = { where: 'keyring', service: `wisp:${path}`, reason: '', unread: [] }
    expect(html(store)).toContain('data-where="keyring"')
    expect(html(store)).toContain('notice-info')
    expect(text(store)).toBe(`API keys and tokens are kept in the desktop's keyring (as wisp:${path}), not in wisp.json.`)
  })

  it('says plainly that wisp.json keeps them, and why', () => {
    const store: SecretStore = {
      where: 'file',
      service: `wisp:${path}`,
      reason: 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)',
      unread: [],
    }
    expect(html(store)).toContain('data-where="file"')
    expect(text(store)).toBe(
      'Secrets are kept in wisp.json (mode 0600): no keyring answered (no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)).',
    )
  })

  it('names the secrets the keyring keeps that this run could not read', () => {
    const store: SecretStore = { where: 'file', service: '', reason: 'the keyring did not answer within 3s', unread: ['model.apiKey', 'api.token'] }
    expect(text(store)).toContain('wisp.json says the keyring keeps the model API key, the API token, which this run could not read from it.')
    const inKeyring: SecretStore = { where: 'keyring', service: 's', reason: '', unread: ['api.terminalToken'] }
    expect(html(inKeyring)).toContain('notice-warn')
    expect(text(inKeyring)).toContain('the terminal token')
  })

  it('says nothing when the server does not say', () => {
    expect(html(null)).toBe('')
  })
})
