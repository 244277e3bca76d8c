import { describe, expect, it } from 'vitest'
import type { SeqFrame } from './chatTypes'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'


const conv = { id: 'c 1', title: 'T', roomId: 'r', createdAt: 'a', updatedAt: 'b', unread: false }

/** An SSE response whose body is fed by the returned controller. */
function sseResponse(chunks: string[], opts: { runId?: string; keepOpen?: boolean; signal?: AbortSignal } = {}) {
  const enc = new TextEncoder()
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      for (const chunk of chunks) c.enqueue(enc.encode(chunk))
      if (!opts.keepOpen) c.close()
      opts.signal?.addEventListener('abort', () => c.error(new DOMException('aborted', 'AbortError')))
    },
  })
  const headers: Record<string, string> = { 'Content-Type': 'text/event-stream; charset=utf-8' }
  if (opts.runId !== undefined) headers['X-Wisp-Run-Id'] = opts.runId
  return new Response(body, { status: 200, headers })
}

async function all(frames: AsyncIterable<SeqFrame>): Promise<SeqFrame[]> {
  const out: SeqFrame[] = []
  for await (const f of frames) out.push(f)
  return out
}

describe('ApiClient chat routes', () => {
  it('calls each route with the right method, path and body', async () => {
    const { fetch, calls } = fakeFetch((c) => {
      if (c.url.endsWith('/messages/truncate')) return json(200, { ok: true, deletedCount: 2 })
      if (c.url.endsWith('/display-messages')) return json(200, { displayMessages: [] })
      if (c.url.endsWith('/messages') && c.method === 'GET')
        return json(200, { messages: [], hasOlder: false, hasNewer: false, branchLength: 0, displayMessages: [], summaries: [] })
      if (c.url.endsWith('/messages')) return json(200, { text: 'x', agentName: 'W', runId: 'r', messageId: 'm' })
      if (c.url.includes('/api/runs/')) {
        return json(200, { run: { id: 'r', conversationId: 'c', userMessageId: 'u', status: 'ended', startedAt: 1 } })
      }
      if (c.url.endsWith('/api/provider')) {
        return json(200, { provider: 'openai', baseURL: '', model: 'm', hasApiKey: true, canRespond: true })
      }
      if (c.method === 'DELETE') return json(200, { ok: true })
      if (c.url.endsWith('/api/conversations') && c.method === 'GET') return json(200, { conversations: [conv] })
      return json(200, { conversation: conv })
    })
    const api = new ApiClient({ baseURL: 'http://h/', token: 't', fetch })
    await expect(api.listConversations()).resolves.toEqual([conv])
    await api.createConversation()
    await api.createConversation({ title: 'x' })
    await api.getConversation('c 1')
    await api.renameConversation('c 1', 'New')
    await api.generateTitle('c 1')
    await expect(api.deleteConversation('c 1')).resolves.toEqual({ ok: true })
    await expect(api.listMessages('c 1')).resolves.toMatchObject({ messages: [], hasOlder: false, displayMessages: [] })
    await expect(api.sendMessage('c 1', { text: 'hi' })).resolves.toMatchObject({ runId: 'r' })
    await expect(api.truncateMessages('c 1', 'm1', true)).resolves.toEqual({ ok: true, deletedCount: 2 })
    await expect(api.listDisplayMessages('c 1')).resolves.toEqual([])
    await expect(api.getRun('r/1')).resolves.toMatchObject({ userMessageId: 'u' })
    await expect(api.getProvider()).resolves.toMatchObject({ provider: 'openai', ollama: { detected: false } })
    await api.setProvider({ provider: 'ollama', model: 'llama3', baseURL: 'http://x' })

    expect(calls.map((c) => [c.method, c.url.replace('http://h', ''), c.body])).toEqual([
      ['GET', '/api/conversations', undefined],
      ['POST', '/api/conversations', {}],
      ['POST', '/api/conversations', { title: 'x' }],
      ['GET', '/api/conversations/c%201', undefined],
      ['PATCH', '/api/conversations/c%201', { title: 'New' }],
      ['PATCH', '/api/conversations/c%201', { generate: true }],
      ['DELETE', '/api/conversations/c%201', undefined],
      ['GET', '/api/conversations/c%201/messages', undefined],
      ['POST', '/api/conversations/c%201/messages', { text: 'hi' }],
      ['POST', '/api/conversations/c%201/messages/truncate', { messageId: 'm1', inclusive: true }],
      ['GET', '/api/conversations/c%201/display-messages', undefined],
      ['GET', '/api/runs/r%2F1', undefined],
      ['GET', '/api/provider', undefined],
      ['PUT', '/api/provider', { provider: 'ollama', model: 'llama3', baseURL: 'http://x' }],
    ])
    expect(calls.every((c) => c.headers.Authorization === 'Bearer t')).toBe(true)
  })

  it('rejects malformed answers', async () => {
    const { fetch } = fakeFetch(() => json(200, { conversations: [{ id: 1 }] }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).listConversations()).rejects.toMatchObject({
      status: 200,
      message: 'malformed conversations response',
    })
  })
})

describe('ApiClient.cancelRun', () => {
  it('posts an empty body to the run\'s cancel route with the token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true }))
    const api = new ApiClient({ baseURL: 'http://h', token: 't', fetch })
    await expect(api.cancelRun('r/1')).resolves.toEqual({ ok: true })
    expect(calls.map((c) => [c.method, c.url, c.body, c.headers.Authorization, c.headers['Content-Type']])).toEqual([
      ['POST', 'http://h/api/runs/r%2F1/cancel', {}, 'Bearer t', 'application/json'],
    ])
  })

  it('rejects with the status and message of a run that already ended or does not exist', async () => {
    const { fetch } = fakeFetch((c) =>
      c.url.includes('/gone/') ? json(404, { error: 'no such run' }) : json(409, { error: 'the run has already ended' }),
    )
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.cancelRun('done')).rejects.toMatchObject({ status: 409, message: 'the run has already ended' })
    await expect(api.cancelRun('gone')).rejects.toMatchObject({ status: 404, message: 'no such run' })
    await expect(api.cancelRun('done')).rejects.toBeInstanceOf(ApiError)
  })

  it('rejects a malformed answer', async () => {
    const { fetch } = fakeFetch(() => json(200, { stopped: true }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).cancelRun('r')).rejects.toMatchObject({ status: 200 })
  })
})

describe('ApiClient.streamMessage', () => {
  it('posts JSON with the token and yields typed frames with their sequence numbers', async () => {
    const { fetch, calls } = fakeFetch(() =>
      sseResponse(
        [
          ': heartbeat\n\n',
          'id: 1\ndata: {"type":"token","text":"Hel","fullText":"Hel"}\n\nid: 2\ndata: {"type":"tok',
          'en","text":"lo","fullText":"Hello"}\n\n',
          'id: 3\ndata: {"type":"sparkle"}\n\n',
          'id: 4\ndata: {"type":"done","fullText":"Hello","runId":"run-9","messageId":"m"}\n\n',
          'id: 5\ndata: {"type":"token","text":"after done","fullText":"x"}\n\n',
        ],
        { runId: 'run-9' },
      ),
    )
    const api = new ApiClient({ baseURL: 'http://h', token: 'tok', fetch })
    const stream = await api.streamMessage('c1', { text: 'hi', clientMessageId: 'local-1' })
    expect(stream.runId).toBe('run-9')
    const frames = await all(stream.frames)
    expect(frames.map((f) => [f.seq, f.frame.type])).toEqual([
      [1, 'token'],
      [2, 'token'],
      [4, 'done'],
    ])
    expect(frames[1]?.frame).toEqual({ type: 'token', text: 'lo', fullText: 'Hello' })
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: 'http://h/api/conversations/c1/messages/stream?dialect=delta',
      body: { text: 'hi', clientMessageId: 'local-1' },
      headers: { Accept: 'text/event-stream', Authorization: 'Bearer tok', 'Content-Type': 'application/json' },
    })
  })

  it('throws the server error before the stream starts (409, 503)', async () => {
    const { fetch } = fakeFetch(() => json(503, { error: 'no model configured' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch }).streamMessage('c1', { text: 'x' }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err).toMatchObject({ status: 503, message: 'no model configured' })
  })

  it('refuses an answer that is not an event stream', async () => {
    const { fetch } = fakeFetch(() => json(200, { ok: true }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).streamMessage('c1', { text: 'x' })).rejects.toThrow(
      /expected an event stream/,
    )
  })

  it('reports a broken connection as ApiError status 0', async () => {
    const enc = new TextEncoder()
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(enc.encode('id: 1\ndata: {"type":"thinking","text":"hm"}\n\n'))
      },
      pull(c) {
        c.error(new TypeError('network error'))
      },
    })
    const { fetch } = fakeFetch(() => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).streamMessage('c1', { text: 'x' })
    const got: SeqFrame[] = []
    const err = await (async () => {
      for await (const f of stream.frames) got.push(f)
    })().catch((e: unknown) => e)
    expect(got).toHaveLength(1)
    expect(err).toMatchObject({ status: 0 })
    expect(String((err as Error).message)).toMatch(/lost the connection/)
  })

  it('passes an abort through as it is', async () => {
    const ctrl = new AbortController()
    const { fetch, calls } = fakeFetch((c) => sseResponse([': hi\n\n'], { keepOpen: true, ...(c.signal ? { signal: c.signal } : {}) }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).streamMessage('c1', { text: 'x' }, { signal: ctrl.signal })
    expect(calls[0]?.signal).toBe(ctrl.signal)
    const pending = all(stream.frames)
    ctrl.abort()
    const err = await pending.catch((e: unknown) => e)
    expect(err).not.toBeInstanceOf(ApiError)
    expect((err as Error).name).toBe('AbortError')
  })
})

describe('ApiClient.streamRun', () => {
  it('resumes after a sequence number and keeps the run id it was given', async () => {
    const { fetch, calls } = fakeFetch(() => sseResponse(['id: 8\ndata: {"type":"error","message":"interrupted"}\n\n']))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).streamRun('run 1', 7)
    expect(stream.runId).toBe('run 1')
    expect(stream.runEnded).toBe(false)
    expect(await all(stream.frames)).toEqual([{ seq: 8, frame: { type: 'error', message: 'interrupted' } }])
    expect(calls[0]).toMatchObject({ method: 'GET', url: 'http://h/api/runs/run%201/stream?dialect=delta&after=7', body: undefined })
  })

  it('yields the delta dialect: the reply so far, then deltas of its segments', async () => {
    const { fetch } = fakeFetch(() =>
      sseResponse([
        'id: 12\ndata: {"type":"reply","segments":["Hello","Waving"],"fullText":"Hello\\n\\nWaving"}\n\n',
        'id: 13\ndata: {"type":"token","text":" now","segment":1}\n\n',
        'id: 14\ndata: {"type":"token","text":"!"}\n\n',
      ]),
    )
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).streamRun('r', 11)
    expect(await all(stream.frames)).toEqual([
      { seq: 12, frame: { type: 'reply', segments: ['Hello', 'Waving'], fullText: 'Hello\n\nWaving' } },
      { seq: 13, frame: { type: 'token', text: ' now', segment: 1 } },
      { seq: 14, frame: { type: 'token', text: '!' } },
    ])
  })

  it('reads 204 as a run that has ended with nothing more to stream, not as an error', async () => {
    const { fetch, calls } = fakeFetch(() => new Response(null, { status: 204 }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).streamRun('r', 40)
    expect(stream).toMatchObject({ runId: 'r', runEnded: true })
    expect(await all(stream.frames)).toEqual([])
    expect(calls).toHaveLength(1)
  })
})
