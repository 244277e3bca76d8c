// The API client's file edits: GET /api/edits?callId= (the call's edits,
// checked) and POST /api/edits/{id}/undo (the edit undone, or the server's
// refusal as an ApiError with its words).

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { json, recorder } from './fakeFetch.test-util'

const edit = {
  id: 'ed_1',
  runId: 'run-1',
  callId: 'call_1',
  conversationId: 'c1',
  path: '/home/ada/project/notes.md',
  created: false,
  undoable: true,
  undoneAt: null,
  createdAt: '2026-11-28T09:00:00.000Z',
}

describe('ApiClient.edits', () => {
  it('asks for the edits of a call, with the token', async () => {
    const { fetch, sent } = recorder(() => json(200, { edits: [edit] }))
    const got = await new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }).edits.ofCall('call 1')
    expect(got).toEqual([edit])
    expect(sent[0]?.url).toBe('http://h/api/edits?callId=call%201')
    expect(sent[0]?.method).toBe('GET')
    expect(sent[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('undoes an edit, and says why the server refused', async () => {
    const done = { ...edit, undoneAt: '2026-11-28T09:01:00.000Z' }
    const { fetch, sent } = recorder(() => json(200, { edit: done }))
    expect(await new ApiClient({ baseURL: 'http://h', fetch }).edits.undo('ed_1')).toEqual(done)
    expect(sent[0]?.url).toBe('http://h/api/edits/ed_1/undo')
    expect(sent[0]?.method).toBe('POST')
    const refused = recorder(() => json(409, { error: 'notes.md changed since this edit: undoing it would lose those changes' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch: refused.fetch }).edits.undo('ed_1').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(409)
    expect((err as ApiError).message).toBe('notes.md changed since this edit: undoing it would lose those changes')
  })

  it('refuses an answer that is not an edit', async () => {
    const { fetch } = recorder(() => json(200, { edits: [{ id: 3 }] }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).edits.ofCall('call_1')).rejects.toThrow('malformed edits response')
  })
})
