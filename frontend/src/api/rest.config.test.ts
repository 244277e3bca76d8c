import { describe, expect, it } from 'vitest'
import { SNAPSHOT, STATUS } from './config.test-util'
import { fakeFetch, json } from './fakeFetch.test-util'
import { ApiClient, ApiError } from './rest'

describe('ApiClient settings calls', () => {
  it('gets the config with the API token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, SNAPSHOT))
    const snap = await new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch }).getConfig()
    expect(snap.config.character.name).toBe('Wisp')
    expect(calls[0]).toMatchObject({ url: 'http://h/api/config', method: 'GET', body: undefined })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('sends a merge patch with PUT, nulls included', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ...SNAPSHOT, pendingRestart: true, pendingRestartReasons: ['x'] }))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    const patch = { features: { shellEnabled: true }, model: { apiKey: null, name: 'gpt-4o' } }
    const snap = await api.patchConfig(patch)
    expect(snap.pendingRestartReasons).toEqual(['x'])
    expect(calls[0]).toMatchObject({ url: 'http://h/api/config', method: 'PUT', body: patch })
    expect(calls[0]?.headers['Content-Type']).toBe('application/json')
  })

  it('passes the server message of a refused patch on', async () => {
    for (const [status, error] of [
      [400, 'terminal.maxConcurrent must be 1-16, got 40'],
      [409, 'fix the config file first: not valid JSON'],
    ] as const) {
      const { fetch } = fakeFetch(() => json(status, { error }))
      const err = await new ApiClient({ baseURL: 'http://h', fetch })
        .patchConfig({ terminal: { maxConcurrent: 40 } })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      expect(err).toMatchObject({ status, message: error })
    }
  })

  it('sets shell access', async () => {
    const { fetch, calls } = fakeFetch(() =>
      json(200, { enabled: true, pendingRestart: true, pendingRestartReasons: ['Shell access enabled'] }),
    )
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).setShellAccess(true)).resolves.toEqual({
      enabled: true,
      pendingRestart: true,
      pendingRestartReasons: ['Shell access enabled'],
    })
    expect(calls[0]).toMatchObject({ url: 'http://h/api/permissions/shell', method: 'PUT', body: { enabled: true } })
  })

  it('restarts the agent with an empty body', async () => {
    const connection = { baseURL: 'http://127.0.0.1:3000', wsURL: 'ws://127.0.0.1:3000/ws' }
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true, status: STATUS, connection }))
    const res = await new ApiClient({ baseURL: 'http://h', fetch }).restartAgent()
    expect(res.connection).toEqual(connection)
    expect(res.status.state).toBe('running')
    expect(calls[0]).toMatchObject({ url: 'http://h/api/agent/restart', method: 'POST', body: undefined })
    expect(calls[0]?.headers['Content-Type']).toBeUndefined()
  })

  it('rejects a refused restart and malformed answers', async () => {
    const busy = fakeFetch(() => json(409, { error: 'a restart is already in progress' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: busy.fetch }).restartAgent()).rejects.toMatchObject({
      status: 409,
      message: 'a restart is already in progress',
    })
    const odd = fakeFetch(() => json(200, { ok: true }))
    const api = new ApiClient({ baseURL: 'http://h', fetch: odd.fetch })
    await expect(api.restartAgent()).rejects.toThrow(/malformed restart/)
    await expect(api.getConfig()).rejects.toThrow(/malformed config/)
    await expect(api.setShellAccess(false)).rejects.toThrow(/malformed shell access/)
  })
})
