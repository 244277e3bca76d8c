// Settings → Files and web's pure part: folders and hosts checked as the
// server will check them, and the merge patch of what changed (lists whole,
// the search key write-only).

import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../api'
import { KEEP_SECRET, checkHost, checkRoot, handsForm, handsPatch } from './handsForm'

const config = { files: { roots: ['/home/ada/project'] }, web: { allowHosts: ['nas.local'], search: { provider: 'searxng' as const, baseURL: 'http://127.0.0.1:8888' } } }

describe('checkRoot', () => {
  it('takes an absolute folder, without its trailing slash', () => {
    expect(checkRoot(' /home/ada/notes/ ', [])).toEqual({ ok: true, root: '/home/ada/notes' })
    expect(checkRoot('C:\\Users\\ada', [])).toEqual({ ok: true, root: 'C:\\Users\\ada' })
  })
  it('refuses what the server refuses, and duplicates', () => {
    for (const bad of ['', 'project', '~/project', '/', '//', '/home/ada/../bob']) expect(checkRoot(bad, []).ok, bad).toBe(false)
    expect(checkRoot('/home/ada/project/', ['/home/ada/project'])).toMatchObject({ ok: false, error: 'That folder is in the list already.' })
  })
})

describe('checkHost', () => {
  it('takes a host name or an IP address, lower-cased', () => {
    expect(checkHost(' NAS.local ', [])).toEqual({ ok: true, host: 'nas.local' })
    expect(checkHost('192.168.1.20', [])).toEqual({ ok: true, host: '192.168.1.20' })
    expect(checkHost('[fd00::1]', [])).toEqual({ ok: true, host: 'fd00::1' })
  })
  it('refuses a URL, a path, odd characters, and duplicates', () => {
    for (const bad of ['', 'http://nas.local', 'nas.local/path', 'nas local', '.nas', 'a..b', 'nas.local:8080']) expect(checkHost(bad, []).ok, bad).toBe(false)
    expect(checkHost('nas.local', ['nas.local']).ok).toBe(false)
  })
})

describe('handsPatch', () => {
  it('is empty when nothing changed', () => {
    expect(handsPatch(config, handsForm(config), KEEP_SECRET)).toEqual({ patch: {}, changed: [] })
    expect(handsForm(DEFAULT_CONFIG)).toEqual({ roots: [], allowHosts: [], provider: '', baseURL: '' })
  })

  it('sends changed lists whole, and the search settings that changed', () => {
    const form = { roots: ['/home/ada/project', '/srv/notes'], allowHosts: [], provider: 'brave' as const, baseURL: 'http://127.0.0.1:8888' }
    expect(handsPatch(config, form, { value: ' BSA-key ', remove: false })).toEqual({
      patch: { files: { roots: ['/home/ada/project', '/srv/notes'] }, web: { allowHosts: [], search: { provider: 'brave', apiKey: 'BSA-key' } } },
      changed: ['files.roots', 'web.allowHosts', 'web.search.provider', 'web.search.apiKey'],
    })
  })

  it('clears the saved key with null when removed', () => {
    expect(handsPatch(config, handsForm(config), { value: '', remove: true }).patch).toEqual({ web: { search: { apiKey: null } } })
  })
})
