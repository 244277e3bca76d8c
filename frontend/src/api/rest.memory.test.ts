// The memory's requests (restMemory.ts through ApiClient.memory): their paths
// and bodies, a 409 on save as a result (never thrown, never retried), and
// every other failure and malformed answer as ApiError.

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { approvalExample, memoryApprovalExample } from './approvals.test-util'
import { fakeFetch, json } from './fakeFetch.test-util'
import { memoryExample as memory, memoryHistoryExample as history } from './memory.test-util'

const client = (respond: Parameters<typeof fakeFetch>[0]) => {
  const { fetch, calls } = fakeFetch(respond)
  return { api: new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }), calls }
}

describe('ApiClient.memory', () => {
  it('gets the memory', async () => {
    const { api, calls } = client(() => json(200, memory))
    await expect(api.memory.get()).resolves.toEqual(memory)
    expect(calls[0]).toMatchObject({ url: 'http://h/api/memory', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('saves the text with the version it was edited from', async () => {
    const saved = { ...memory, text: 'new', version: 4 }
    const { api, calls } = client(() => json(200, saved))
    await expect(api.memory.save('new', 3)).resolves.toEqual({ ok: true, memory: saved })
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([['PUT', 'http://h/api/memory', { text: 'new', baseVersion: 3 }]])
  })

  it('answers a 409 (changed elsewhere) as a refused save, with the server’s words', async () => {
    const { api, calls } = client(() => json(409, { error: 'the memory changed since version 3' }))
    await expect(api.memory.save('mine', 3)).resolves.toEqual({ ok: false, error: 'the memory changed since version 3' })
    expect(calls).toHaveLength(1)
    const bare = client(() => new Response('', { status: 409 }))
    await expect(bare.api.memory.save('mine', 3)).resolves.toEqual({ ok: false, error: 'the memory changed elsewhere' })
  })

  it('gets the history, newest first as the server sends it', async () => {
    const { api, calls } = client(() => json(200, { versions: history }))
    await expect(api.memory.history()).resolves.toEqual(history)
    expect(calls[0]).toMatchObject({ url: 'http://h/api/memory/history', method: 'GET' })
  })

  it('undoes the last change', async () => {
    const back = { ...memory, text: '# About the user\n', version: 4 }
    const { api, calls } = client(() => json(200, back))
    await expect(api.memory.undo()).resolves.toEqual(back)
    expect(calls.map((c) => [c.method, c.url])).toEqual([['POST', 'http://h/api/memory/undo']])
  })

  it('throws ApiError for other refusals and malformed answers', async () => {
    const cases: [() => Promise<unknown>, number, unknown, string][] = [
      [() => client(() => json(413, { error: 'the memory is over 16384 bytes' })).api.memory.save('x', 1), 413, null, 'the memory is over 16384 bytes'],
      [() => client(() => json(409, { error: 'nothing to undo' })).api.memory.undo(), 409, null, 'nothing to undo'],
      [() => client(() => json(200, { ...memory, version: '3' })).api.memory.get(), 200, null, 'malformed memory response'],
      [() => client(() => json(200, { text: 'x' })).api.memory.save('x', 1), 200, null, 'malformed memory response'],
      [() => client(() => json(200, { versions: [{ ...history[0], source: 7 }] })).api.memory.history(), 200, null, 'malformed memory history response'],
      [() => client(() => new Response('<html>', { status: 200 })).api.memory.get(), 200, null, '/api/memory: response is not JSON'],
    ]
    for (const [run, status, , message] of cases) {
      const err = await run().catch((e: unknown) => e)
      expect(err, message).toBeInstanceOf(ApiError)
      expect((err as ApiError).status, message).toBe(status)
      expect((err as ApiError).message).toBe(message)
    }
  })
})

describe('ApiClient.decideApproval of a memory approval', () => {
  it('sends the edited text only when given', async () => {
    const approved = { ...memoryApprovalExample, status: 'approved', decision: 'approve', decidedAt: '2026-11-25T01:01:00Z' }
    const { api, calls } = client(() => json(200, { approval: approved }))
    await expect(api.decideApproval('ap_3', 'approve', '', [], 'edited note')).resolves.toEqual({ ok: true, approval: approved })
    await api.decideApproval('ap_3', 'approve')
    await api.decideApproval('ap_3', 'deny')
    expect(calls.map((c) => c.body)).toEqual([{ decision: 'approve', text: 'edited note' }, { decision: 'approve' }, { decision: 'deny' }])
  })

  it('lists memory approvals with their text beside shell ones', async () => {
    const { api } = client(() => json(200, { approvals: [approvalExample, memoryApprovalExample] }))
    await expect(api.listApprovals()).resolves.toEqual([approvalExample, memoryApprovalExample])
  })
})
