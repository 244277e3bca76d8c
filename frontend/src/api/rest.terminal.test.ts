import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError, isUnauthorized } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'


describe('ApiClient terminal calls', () => {
  it('starts a run with the client id and terminal token headers', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true, runId: 'run-1' }))
    const api = new ApiClient({ baseURL: 'http://h', token: 'api', fetch })
    await expect(
      api.startTerminalRun({ command: 'ls -la', cols: 100, rows: 30 }, { clientId: 'tab-1', terminalToken: 'tt' }),
    ).resolves.toEqual({ ok: true, runId: 'run-1' })
    expect(calls[0]).toMatchObject({
      url: 'http://h/api/terminal/run',
      method: 'POST',
      body: { command: 'ls -la', clientId: 'tab-1', cols: 100, rows: 30 },
    })
    expect(calls[0]?.headers).toMatchObject({
      Authorization: 'Bearer api',
      'X-Client-Id': 'tab-1',
      'X-Terminal-Token': 'tt',
      'Content-Type': 'application/json',
    })
  })

  it('sends no terminal token header without one', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true, runId: 'run-1' }))
    await new ApiClient({ baseURL: 'http://h', fetch }).startTerminalRun({ command: 'ls' }, { clientId: 'tab-1' })
    expect(calls[0]?.headers['X-Terminal-Token']).toBeUndefined()
    expect(calls[0]?.headers.Authorization).toBeUndefined()
    expect(calls[0]?.body).toEqual({ command: 'ls', clientId: 'tab-1' })
  })

  it('turns refusals into ApiError with the server message', async () => {
    for (const [status, error] of [
      [400, 'command must not contain newlines'],
      [401, 'missing or wrong X-Terminal-Token'],
      [403, 'shell access is off'],
      [429, 'too many terminal runs'],
    ] as const) {
      const { fetch } = fakeFetch(() => json(status, { error }))
      const err = await new ApiClient({ baseURL: 'http://h', fetch })
        .startTerminalRun({ command: 'x' }, { clientId: 't' })
        .catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toBe(status)
      expect((err as ApiError).message).toBe(error)
      expect(isUnauthorized(err)).toBe(status === 401)
    }
  })

  it('lists runs, gets one with its scrollback, and kills one', async () => {
    const run = { runId: 'run-1', command: 'ls', status: 'running' }
    const { fetch, calls } = fakeFetch((c) => {
      if (c.url.endsWith('/api/terminal/runs')) return json(200, { enabled: true, runs: [run] })
      if (c.url.endsWith('/kill')) return json(200, { ok: true })
      return json(200, { ...run, lastSeq: 3, scrollback: [{ seq: 2, event: 'stdout', data: 'x' }] })
    })
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    expect((await api.listTerminalRuns()).runs.map((r) => r.runId)).toEqual(['run-1'])
    expect((await api.getTerminalRun('run-1')).scrollback).toEqual([{ seq: 2, event: 'stdout', data: 'x' }])
    await expect(api.killTerminalRun('run-1')).resolves.toEqual({ ok: true })
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET http://h/api/terminal/runs',
      'GET http://h/api/terminal/runs/run-1',
      'POST http://h/api/terminal/runs/run-1/kill',
    ])
  })

  it('escapes run ids in paths and rejects malformed answers', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { nope: true }))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.getTerminalRun('a/b?c')).rejects.toThrow(/malformed terminal run/)
    expect(calls[0]?.url).toBe('http://h/api/terminal/runs/a%2Fb%3Fc')
    await expect(api.listTerminalRuns()).rejects.toThrow(/malformed terminal runs/)
    await expect(api.startTerminalRun({ command: 'ls' }, { clientId: 't' })).rejects.toThrow(/malformed/)
  })
})
