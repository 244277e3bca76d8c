import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { approvalExample as approval, grantExample as grant } from './approvals.test-util'
import { fakeFetch, json } from './fakeFetch.test-util'

const client = (respond: Parameters<typeof fakeFetch>[0]) => {
  const { fetch, calls } = fakeFetch(respond)
  return { api: new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }), calls }
}

describe('ApiClient approvals and grants', () => {
  it('lists the pending approvals', async () => {
    const { api, calls } = client(() => json(200, { approvals: [approval] }))
    await expect(api.listApprovals()).resolves.toEqual([approval])
    expect(calls[0]).toMatchObject({ url: 'http://h/api/approvals', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('posts a decision, with the note only when there is one', async () => {
    const approved = { ...approval, status: 'approved', decision: 'approve', decidedAt: '2026-11-25T01:01:00Z' }
    const { api, calls } = client(() => json(200, { approval: approved }))
    await expect(api.decideApproval('ap_1', 'approve')).resolves.toEqual({ ok: true, approval: approved })
    await api.decideApproval('ap/2', 'deny', 'not on main')
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', 'http://h/api/approvals/ap_1', { decision: 'approve' }],
      ['POST', 'http://h/api/approvals/ap%2F2', { decision: 'deny', note: 'not on main' }],
    ])
    expect(calls[0]?.headers['Content-Type']).toBe('application/json')
  })

  it('answers a 409 with the decision that won instead of throwing', async () => {
    const { api } = client(() => json(409, { error: 'approval already decided', decision: 'approve_always' }))
    await expect(api.decideApproval('ap_1', 'deny')).resolves.toEqual({
      ok: false,
      decision: 'approve_always',
      error: 'approval already decided',
    })
    const cancelled = client(() => json(409, { error: 'approval cancelled', decision: null }))
    await expect(cancelled.api.decideApproval('ap_1', 'approve')).resolves.toEqual({
      ok: false,
      decision: null,
      error: 'approval cancelled',
    })
  })

  it('throws ApiError for other refusals and for malformed answers', async () => {
    for (const [status, body, message] of [
      [400, { error: 'decision must be approve, approve_always or deny' }, 'decision must be approve, approve_always or deny'],
      [404, { error: 'no such approval' }, 'no such approval'],
      [409, { error: 'x', decision: 'approve_twice' }, 'malformed approval conflict response'],
      [409, 'not json at all', 'malformed approval conflict response'],
      [200, { approval: { ...approval, status: 'done' } }, 'malformed approval response'],
      [200, { ok: true }, 'malformed approval response'],
    ] as const) {
      const { api } = client(() => (typeof body === 'string' ? new Response(body, { status }) : json(status, body)))
      const err = await api.decideApproval('ap_1', 'approve').catch((e: unknown) => e)
      expect(err, message).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toBe(status)
      expect((err as ApiError).message).toBe(message)
    }
  })

  it('lists grants and deletes one (204, no body)', async () => {
    const { api, calls } = client((c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : json(200, { grants: [grant] })))
    await expect(api.listGrants()).resolves.toEqual([grant])
    await expect(api.deleteGrant('g 1')).resolves.toBeUndefined()
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET http://h/api/grants', 'DELETE http://h/api/grants/g%201'])
  })

  it('rejects a missing grant with ApiError 404 and malformed lists', async () => {
    const missing = client(() => json(404, { error: 'no such grant' }))
    const err = await missing.api.deleteGrant('g9').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(404)
    const malformed = client(() => json(200, { grants: [{ id: 'g1', base: 7 }] }))
    await expect(malformed.api.listGrants()).rejects.toThrow(/malformed grants/)
    const approvals = client(() => json(200, { approvals: [{}] }))
    await expect(approvals.api.listApprovals()).rejects.toThrow(/malformed approvals/)
  })

  it('reports an unreachable server as ApiError 0', async () => {
    const { api } = client(() => Promise.reject(new TypeError('fetch failed')))
    const err = await api.decideApproval('ap_1', 'approve').catch((e: unknown) => e)
    expect((err as ApiError).status).toBe(0)
  })
})
