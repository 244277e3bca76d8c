import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'

function sse(headers: Record<string, string>): Response {
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('id: 1\ndata: {"type":"token","text":"hi"}\n\n'))
      c.close()
    },
  })
  return new Response(body, { status: 200, headers: { 'Content-Type': 'text/event-stream', ...headers } })
}

const page = {
  messages: [{ id: 'u0', role: 'user', text: 'q', timestamp: 1, parentId: null, siblingIds: ['u0', 'u1'], siblingIndex: 0, depth: 0 }],
  hasOlder: false,
  hasNewer: false,
  branchLength: 1,
  displayMessages: [],
  summaries: [],
}

describe('ApiClient tree routes', () => {
  it('edits a message: POST …/edit in the delta dialect, with the new message and run from the headers', async () => {
    const { fetch, calls } = fakeFetch(() => sse({ 'X-Wisp-Run-Id': 'run-2', 'X-Wisp-Message-Id': 'u2' }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).editMessage('c 1', 'u/1', { text: 'better', clientMessageId: 'k' })
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: 'http://h/api/conversations/c%201/messages/u%2F1/edit?dialect=delta',
      body: { text: 'better', clientMessageId: 'k' },
    })
    expect(stream).toMatchObject({ runId: 'run-2', messageId: 'u2', runEnded: false })
  })

  it('regenerates a reply: POST …/regenerate with an empty object; no message header is null', async () => {
    const { fetch, calls } = fakeFetch(() => sse({ 'X-Wisp-Run-Id': 'run-3' }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).regenerate('c1', 'a1')
    expect(calls[0]).toMatchObject({ method: 'POST', url: 'http://h/api/conversations/c1/messages/a1/regenerate?dialect=delta', body: {} })
    expect(stream).toMatchObject({ runId: 'run-3', messageId: null })
  })

  it('refuses an edit with the server error (409 busy, 400 wrong role)', async () => {
    const { fetch } = fakeFetch(() => json(409, { error: 'a reply is being written' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch }).editMessage('c1', 'u1', { text: 'x' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 409, message: 'a reply is being written' })
  })

  it('shows a branch: PUT …/branch {messageId} answers the page of that branch', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, page))
    const got = await new ApiClient({ baseURL: 'http://h', fetch }).setBranch('c1', 'u0')
    expect(calls[0]).toMatchObject({ method: 'PUT', url: 'http://h/api/conversations/c1/branch', body: { messageId: 'u0' } })
    expect(got).toEqual(page)
  })

  it('rejects a branch answer that is not a page', async () => {
    const { fetch } = fakeFetch(() => json(200, { messages: 'no' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).setBranch('c1', 'u0')).rejects.toBeInstanceOf(ApiError)
  })
})
