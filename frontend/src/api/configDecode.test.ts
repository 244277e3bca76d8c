import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, decodeConfigSnapshot, decodeSecretStore, decodeShellAccess } from './configDecode'
import { decodeServerMessage } from './decode'
import { decodeRestartResult } from './restartDecode'
import { SNAPSHOT, STATUS } from './config.test-util'

describe('decodeConfigSnapshot', () => {
  it('decodes a whole snapshot', () => {
    const snap = decodeConfigSnapshot(SNAPSHOT)
    expect(snap).not.toBeNull()
    expect(snap!.path).toBe(SNAPSHOT.path)
    expect(snap!.config.server.allowedHosts).toEqual(['wisp.lan'])
    expect(snap!.config.model).toEqual(SNAPSHOT.config.model)
    expect(snap!.config.ui.theme).toBe('dark')
    expect(snap!.secrets['model.apiKey']).toBe(true)
    expect(snap!.fields).toHaveLength(3)
    expect(snap!.fields[1]).toEqual({ path: 'server.host', apply: 'restart', secret: false, editable: false, label: 'Listen address' })
    expect(snap!.overrides).toEqual({ 'server.port': 'WISP_PORT' })
    expect(snap!.configError).toBe('')
  })

  it('says where the secrets are kept, and why not in the keyring', () => {
    expect(decodeConfigSnapshot(SNAPSHOT)!.secretStore).toEqual(SNAPSHOT.secretStore)
    const inFile = { where: 'file', service: 'wisp:/x/wisp.json', reason: 'no D-Bus session bus', unread: ['model.apiKey'] }
    expect(decodeSecretStore(inFile)).toEqual(inFile)
    expect(decodeSecretStore({ where: 'file', reason: 3, unread: 'model.apiKey' })).toEqual({
      where: 'file',
      service: '',
      reason: '',
      unread: [],
    })
    expect(decodeSecretStore({ where: 'vault' })).toBeNull()
    expect(decodeConfigSnapshot({ ...SNAPSHOT, secretStore: undefined })!.secretStore).toBeNull()
  })

  it('rejects a body without its path or config', () => {
    expect(decodeConfigSnapshot({ ...SNAPSHOT, path: 3 })).toBeNull()
    expect(decodeConfigSnapshot({ ...SNAPSHOT, config: [] })).toBeNull()
    expect(decodeConfigSnapshot(null)).toBeNull()
  })

  it('fills odd or missing leaves with the defaults and drops odd entries', () => {
    const snap = decodeConfigSnapshot({
      path: '/x/wisp.json',
      config: {
        model: { provider: 'gemini', temperature: 'hot', name: 'm' },
        terminal: 'nope',
        ui: { theme: 'sepia' },
      },
      secrets: { 'model.apiKey': 'yes', 'api.token': true },
      fields: [{ path: 'a.b', apply: 'sometimes' }, { path: 'c.d', apply: 'hot' }, 'x'],
      overrides: { 'server.port': 7 },
      configError: 5,
      pendingRestartReasons: 'x',
    })
    expect(snap).not.toBeNull()
    expect(snap!.config.model).toEqual({ ...DEFAULT_CONFIG.model, name: 'm' })
    expect(snap!.config.terminal).toEqual(DEFAULT_CONFIG.terminal)
    expect(snap!.config.ui.theme).toBe('system')
    expect(snap!.secrets).toEqual({ 'api.token': true })
    expect(snap!.fields).toEqual([{ path: 'c.d', apply: 'hot', secret: false, editable: true, label: 'c.d' }])
    expect(snap!.overrides).toEqual({})
    expect(snap!).toMatchObject({ configError: '', pendingRestart: false, pendingRestartReasons: [] })
  })

  it('keeps the file error and pending restart', () => {
    const snap = decodeConfigSnapshot({
      ...SNAPSHOT,
      configError: 'config /x is not valid JSON',
      pendingRestart: true,
      pendingRestartReasons: ['Shell access enabled'],
    })
    expect(snap).toMatchObject({
      configError: 'config /x is not valid JSON',
      pendingRestart: true,
      pendingRestartReasons: ['Shell access enabled'],
    })
  })
})

describe('decodeShellAccess', () => {
  it('needs enabled and defaults the rest', () => {
    expect(decodeShellAccess({ enabled: true, pendingRestart: true, pendingRestartReasons: ['Shell access enabled'] })).toEqual({
      enabled: true,
      pendingRestart: true,
      pendingRestartReasons: ['Shell access enabled'],
    })
    expect(decodeShellAccess({ enabled: false })).toEqual({ enabled: false, pendingRestart: false, pendingRestartReasons: [] })
    expect(decodeShellAccess({ enabled: 'yes' })).toBeNull()
  })
})

describe('decodeRestartResult', () => {
  it('decodes the status and the new connection', () => {
    const res = decodeRestartResult({
      ok: true,
      status: STATUS,
      connection: { baseURL: 'http://127.0.0.1:3000/', wsURL: 'ws://127.0.0.1:3000/ws' },
    })
    expect(res).toEqual({
      ok: true,
      status: { ...STATUS, pendingRestart: false, pendingRestartReasons: [], autonomyEnabled: false },
      connection: { baseURL: 'http://127.0.0.1:3000', wsURL: 'ws://127.0.0.1:3000/ws' },
    })
  })

  it('needs ok and a status; an odd connection is left out', () => {
    expect(decodeRestartResult({ ok: true })).toBeNull()
    expect(decodeRestartResult({ status: STATUS })).toBeNull()
    for (const connection of [undefined, { baseURL: 'javascript:alert(1)', wsURL: 'ws://x/ws' }, { baseURL: 'http://x' }]) {
      expect(decodeRestartResult({ ok: true, status: STATUS, connection })?.connection).toBeNull()
    }
  })
})

describe('config frames', () => {
  it('decodes restart-required, config-error and config-changed', () => {
    expect(decodeServerMessage('{"type":"restart-required","reasons":["Shell access enabled"]}')).toEqual({
      type: 'restart-required',
      reasons: ['Shell access enabled'],
    })
    expect(decodeServerMessage('{"type":"config-error","message":"not valid JSON"}')).toEqual({
      type: 'config-error',
      message: 'not valid JSON',
    })
    expect(decodeServerMessage('{"type":"config-changed","paths":["character.name"]}')).toEqual({
      type: 'config-changed',
      paths: ['character.name'],
    })
  })

  it('rejects them without their fields', () => {
    expect(decodeServerMessage('{"type":"restart-required"}')).toBeNull()
    expect(decodeServerMessage('{"type":"restart-required","reasons":[1]}')).toBeNull()
    expect(decodeServerMessage('{"type":"config-error","message":""}')).toBeNull()
    expect(decodeServerMessage('{"type":"config-changed","paths":"x"}')).toBeNull()
  })

  it('reads configError of a status frame, absent when empty', () => {
    const withError = decodeServerMessage(JSON.stringify({ type: 'status', ...STATUS, configError: 'bad file' }))
    expect(withError).toMatchObject({ configError: 'bad file' })
    const fine = decodeServerMessage(JSON.stringify({ type: 'status', ...STATUS, configError: '' }))
    expect(fine).not.toHaveProperty('configError')
  })
})
