import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'


const statusBody = {
  state: 'running',
  agentName: 'Wisp',
  model: '',
  canRespond: false,
  canRespondReason: 'no model configured',
  startedAt: 1,
  uptime: 5,
  pendingRestart: false,
  pendingRestartReasons: [],
  autonomyEnabled: true,
}

describe('ApiClient', () => {
  it('gets the status with a bearer token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, statusBody))
    const api = new ApiClient({ baseURL: 'http://127.0.0.1:9/', token: 's3', fetch })
    await expect(api.getStatus()).resolves.toEqual(statusBody)
    expect(calls[0]?.url).toBe('http://127.0.0.1:9/api/status')
    expect(calls[0]?.headers.Authorization).toBe('Bearer s3')
  })

  it('sends no Authorization header without a token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true }))
    await new ApiClient({ baseURL: 'http://h', fetch }).getHealth()
    expect(calls[0]?.headers.Authorization).toBeUndefined()
  })

  it('posts agent events and ui ready as JSON', async () => {
    const { fetch, calls } = fakeFetch((c) =>
      c.url.endsWith('/api/agent/event') ? json(200, { ok: true, eventId: 'evt-7' }) : json(200, { ok: true }),
    )
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.publishAgentEvent('system', { message: 'hi' })).resolves.toEqual({ ok: true, eventId: 'evt-7' })
    await api.publishAgentEvent('autonomy', {}, 'heartbeat')
    await api.uiReady({ painted: true })
    await api.uiReady({ painted: false })
    expect(calls.map((c) => [c.method, c.headers['Content-Type'], c.body])).toEqual([
      ['POST', 'application/json', { stream: 'system', payload: { message: 'hi' } }],
      ['POST', 'application/json', { stream: 'autonomy', payload: {}, kind: 'heartbeat' }],
      ['POST', 'application/json', { api: true, ws: true, painted: true }],
      ['POST', 'application/json', { api: true, ws: true, painted: false }],
    ])
  })

  it('throws ApiError with the server message and status', async () => {
    const { fetch } = fakeFetch(() => json(401, { error: 'token required' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch }).getStatus().catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 401, message: 'token required' })
  })

  it('reports non-JSON errors, network failures and malformed bodies as ApiError', async () => {
    const text = fakeFetch(() => new Response('boom', { status: 502, statusText: 'Bad Gateway' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: text.fetch }).getHealth()).rejects.toMatchObject({
      status: 502,
      message: '502 Bad Gateway',
    })
    const down: typeof fetch = async () => {
      throw new TypeError('fetch failed')
    }
    await expect(new ApiClient({ baseURL: 'http://h', fetch: down }).getHealth()).rejects.toMatchObject({
      status: 0,
    })
    const bad = fakeFetch(() => json(200, { state: 'running' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: bad.fetch }).getStatus()).rejects.toBeInstanceOf(ApiError)
  })
})
