import { describe, expect, it } from 'vitest'
import { fakeFetch, json } from './fakeFetch.test-util'
import { ApiClient, ApiError } from './rest'

const reminder = {
  id: 'r1',
  conversationId: 'c1',
  text: 'stretch',
  at: '2026-11-21T14:05:00.000Z',
  createdAt: '2026-11-21T13:35:00.000Z',
  status: 'pending',
  late: false,
}

const autonomy = { enabled: false, intervalMs: 30000, maxPerHour: 4, cooldownMs: 120000, sentLastHour: 0 }

const client = (respond: Parameters<typeof fakeFetch>[0]) => {
  const { fetch, calls } = fakeFetch(respond)
  return { api: new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch }), calls }
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  const err = await p.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(ApiError)
  return err as ApiError
}

describe('ApiClient reminder calls', () => {
  it('lists the reminders with the token', async () => {
    const { api, calls } = client(() => json(200, { reminders: [reminder] }))
    await expect(api.listReminders()).resolves.toEqual([reminder])
    expect(calls[0]).toMatchObject({ url: 'http://h/api/reminders', method: 'GET', body: undefined })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('creates a reminder in N minutes, in a conversation', async () => {
    const { api, calls } = client(() => json(201, reminder))
    await expect(api.createReminder({ conversationId: 'c1', text: 'stretch', inMinutes: 30 })).resolves.toEqual(reminder)
    expect(calls[0]).toMatchObject({
      url: 'http://h/api/reminders',
      method: 'POST',
      body: { conversationId: 'c1', text: 'stretch', inMinutes: 30 },
    })
    expect(calls[0]?.headers['Content-Type']).toBe('application/json')
  })

  it('creates a reminder at a time, without a conversation (no key sent)', async () => {
    const { api, calls } = client(() => json(201, { ...reminder, conversationId: null }))
    const res = await api.createReminder({ text: 'stretch', at: '2026-11-21T14:05:00.000Z' })
    expect(res.conversationId).toBeNull()
    expect(calls[0]?.body).toEqual({ text: 'stretch', at: '2026-11-21T14:05:00.000Z' })
  })

  it("passes the server's refusals on with their status", async () => {
    for (const [status, error] of [
      [400, 'text is required'],
      [400, 'give exactly one of at and inMinutes'],
      [400, 'at is in the past'],
      [404, 'conversation not found'],
    ] as const) {
      const { api } = client(() => json(status, { error }))
      const err = await failure(api.createReminder({ text: 'x', inMinutes: 1 }))
      expect(err).toMatchObject({ status, message: error })
    }
  })

  it('deletes a reminder by its escaped id', async () => {
    const { api, calls } = client(() => json(200, { ok: true }))
    await expect(api.deleteReminder('r 1/2')).resolves.toEqual({ ok: true })
    expect(calls[0]).toMatchObject({ url: 'http://h/api/reminders/r%201%2F2', method: 'DELETE', body: undefined })
    const missing = client(() => json(404, { error: 'reminder not found' }))
    expect(await failure(missing.api.deleteReminder('nope'))).toMatchObject({ status: 404, message: 'reminder not found' })
  })

  it('rejects malformed answers', async () => {
    const { api } = client(() => json(200, { reminders: [{ id: 'r1' }] }))
    await expect(api.listReminders()).rejects.toThrow('malformed reminders response')
    const odd = client(() => json(201, { reminder }))
    await expect(odd.api.createReminder({ text: 'x', inMinutes: 1 })).rejects.toThrow('malformed reminder response')
    const noOk = client(() => json(200, {}))
    await expect(noOk.api.deleteReminder('r1')).rejects.toThrow('malformed response')
  })

  it('reports an unreachable server as status 0', async () => {
    const { api } = client(() => Promise.reject(new TypeError('Failed to fetch')))
    expect((await failure(api.listReminders())).status).toBe(0)
  })
})

describe('ApiClient autonomy calls', () => {
  it('gets the autonomy state', async () => {
    const { api, calls } = client(() => json(200, { ...autonomy, nextTickAt: 5000 }))
    await expect(api.getAutonomy()).resolves.toEqual({ ...autonomy, nextTickAt: 5000 })
    expect(calls[0]).toMatchObject({ url: 'http://h/api/agent/autonomy', method: 'GET' })
  })

  it('turns autonomy on and answers with the state', async () => {
    const { api, calls } = client(() => json(200, { ...autonomy, enabled: true }))
    await expect(api.setAutonomy(true)).resolves.toMatchObject({ enabled: true })
    expect(calls[0]).toMatchObject({ url: 'http://h/api/agent/autonomy', method: 'POST', body: { enabled: true } })
  })

  it('passes a refusal (broken config file) on, and rejects malformed states', async () => {
    const broken = client(() => json(409, { error: 'fix the config file first: not valid JSON' }))
    expect(await failure(broken.api.setAutonomy(false))).toMatchObject({
      status: 409,
      message: 'fix the config file first: not valid JSON',
    })
    const odd = client(() => json(200, { enabled: true }))
    await expect(odd.api.getAutonomy()).rejects.toThrow('malformed autonomy response')
  })
})
