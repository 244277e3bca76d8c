// The client's context, usage and summary routes (restContext.ts): paths,
// methods, decoded answers, and errors as ApiError.

import { describe, expect, it } from 'vitest'
import { fakeFetch, json } from './fakeFetch.test-util'
import { summaryExample } from './summaries.test-util'
import { ApiClient, ApiError } from './rest'

const usage = { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 10, completionTokens: 2, totalTokens: 12 }

describe('ApiClient.context', () => {
  it('reads the context meter and the conversation usage', async () => {
    const info = { conversationId: 'c 1', model: 'm', window: 8000, windowSource: 'config', budget: 5000, used: 10, summaryAt: 4000 }
    const cu = { conversationId: 'c 1', usage, costUsd: 0, unpriced: 1, calls: 1 }
    const { fetch, calls } = fakeFetch((c) => json(200, c.url.endsWith('/context') ? info : cu))
    const api = new ApiClient({ baseURL: 'http://h/', fetch })
    await expect(api.context.getContext('c 1')).resolves.toEqual(info)
    await expect(api.context.getConversationUsage('c 1')).resolves.toEqual(cu)
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['GET http://h/api/conversations/c%201/context', 'GET http://h/api/conversations/c%201/usage'])
  })

  it('asks for the usage report of a number of days within the bounds', async () => {
    const report = { rows: [], total: usage, costUsd: 0 }
    const { fetch, calls } = fakeFetch(() => json(200, report))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.context.getUsage(7)).resolves.toEqual(report)
    await api.context.getUsage(1000)
    await api.context.getUsage(0)
    await api.context.getUsage()
    expect(calls.map((c) => c.url)).toEqual([
      'http://h/api/usage?days=7',
      'http://h/api/usage?days=366',
      'http://h/api/usage?days=1',
      'http://h/api/usage?days=30',
    ])
  })

  it('regenerates a summary (202) and undoes one', async () => {
    const { fetch, calls } = fakeFetch((c) =>
      c.method === 'POST'
        ? json(202, { runId: 'run-9', summary: { ...summaryExample, status: 'streaming', text: '' } })
        : json(200, { summary: { ...summaryExample, status: 'undone' } }),
    )
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.context.regenerateSummary('c1', 's1')).resolves.toMatchObject({ runId: 'run-9', summary: { status: 'streaming' } })
    await expect(api.context.undoSummary('c1', 's1')).resolves.toMatchObject({ id: 's1', status: 'undone' })
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', 'http://h/api/conversations/c1/summaries/s1/regenerate', {}],
      ['DELETE', 'http://h/api/conversations/c1/summaries/s1', undefined],
    ])
  })

  it("reads a regenerate's run in the delta dialect, from the start", async () => {
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('id: 1\ndata: {"type":"summary_delta","summaryId":"s1","text":"They"}\n\nid: 2\ndata: {"type":"done","fullText":""}\n\n'))
        c.close()
      },
    })
    const { fetch, calls } = fakeFetch(() => new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }))
    const stream = await new ApiClient({ baseURL: 'http://h', fetch }).context.streamSummary('run-9')
    const frames = []
    for await (const f of stream.frames) frames.push(f.frame.type)
    expect(frames).toEqual(['summary_delta', 'done'])
    expect(calls[0]?.url).toBe('http://h/api/runs/run-9/stream?dialect=delta&after=0')
  })

  it('throws ApiError for a refusal and for an answer that is not its shape', async () => {
    const { fetch } = fakeFetch((c) => (c.url.includes('/summaries/') ? json(409, { error: 'the conversation is busy' }) : json(200, { used: 'lots' })))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.context.regenerateSummary('c1', 's1')).rejects.toEqual(new ApiError(409, 'the conversation is busy'))
    await expect(api.context.getContext('c1')).rejects.toEqual(new ApiError(200, 'malformed context response'))
  })
})
