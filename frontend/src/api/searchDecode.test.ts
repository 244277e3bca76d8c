import { describe, expect, it } from 'vitest'
import { fakeFetch, json } from './fakeFetch.test-util'
import { ApiClient, ApiError } from './rest'
import { decodeSearchResult, decodeSearchResults, snippetParts } from './searchDecode'
import type { SearchResult } from './searchTypes'

const result: SearchResult = {
  conversationId: 'c1',
  conversationTitle: 'Trip',
  messageId: 'm1',
  role: 'assistant',
  createdAt: 1763715600000,
  snippet: '…the train to Zürich 🚆 leaves from track 7…',
  highlights: [
    { start: 5, end: 10 },
    { start: 14, end: 20 },
  ],
}

describe('decodeSearchResults', () => {
  it('decodes a page whole, with and without a next cursor', () => {
    expect(decodeSearchResults({ results: [result], nextCursor: 'abc' })).toEqual({ results: [result], nextCursor: 'abc' })
    expect(decodeSearchResults({ results: [] })).toEqual({ results: [] })
  })

  it('rejects an answer that is not its shape (wire.gen.test.ts checks every field)', () => {
    expect(decodeSearchResults({ results: [result, { ...result, snippet: 3 }] })).toBeNull()
    expect(decodeSearchResults({})).toBeNull()
  })

  it('rejects highlights that are not stretches of the snippet, in order', () => {
    const bad = [
      [{ start: 5, end: 5 }], // empty
      [{ start: 6, end: 4 }], // backwards
      [{ start: 40, end: 99 }], // past the end
      [{ start: -1, end: 2 }],
      [{ start: 1.5, end: 2 }],
      [
        { start: 5, end: 10 },
        { start: 8, end: 12 },
      ], // overlapping
      [
        { start: 14, end: 20 },
        { start: 5, end: 10 },
      ], // out of order
      [{ start: '1', end: 2 }],
      'all',
    ]
    for (const highlights of bad) expect(decodeSearchResult({ ...result, highlights }), JSON.stringify(highlights)).toBeNull()
  })
})

describe('snippetParts', () => {
  it('cuts the snippet into plain and highlighted text by UTF-16 index', () => {
    expect(snippetParts(result)).toEqual([
      { text: '…the ', mark: false },
      { text: 'train', mark: true },
      { text: ' to ', mark: false },
      { text: 'Zürich', mark: true },
      { text: ' 🚆 leaves from track 7…', mark: false },
    ])
    expect(snippetParts({ snippet: 'kiwi', highlights: [{ start: 0, end: 4 }] })).toEqual([{ text: 'kiwi', mark: true }])
    expect(snippetParts({ snippet: 'no marks', highlights: [] })).toEqual([{ text: 'no marks', mark: false }])
  })

  it('keeps markup in message text as text', () => {
    const parts = snippetParts({ snippet: '<img src=x onerror=alert(1)> kiwi', highlights: [{ start: 29, end: 33 }] })
    expect(parts).toEqual([
      { text: '<img src=x onerror=alert(1)> ', mark: false },
      { text: 'kiwi', mark: true },
    ])
  })
})

describe('ApiClient.search', () => {
  const client = (respond: Parameters<typeof fakeFetch>[0]) => {
    const { fetch, calls } = fakeFetch(respond)
    return { api: new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }), calls }
  }

  it('sends the words, the limit and the cursor as query parameters', async () => {
    const { api, calls } = client(() => json(200, { results: [result] }))
    await expect(api.search('café & "co"', { limit: 5, cursor: 'c/1' })).resolves.toEqual({ results: [result] })
    const url = new URL(calls[0]!.url)
    expect(url.pathname).toBe('/api/search')
    expect(url.searchParams.get('q')).toBe('café & "co"')
    expect(url.searchParams.get('limit')).toBe('5')
    expect(url.searchParams.get('cursor')).toBe('c/1')
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('throws the server refusal as ApiError, and a malformed answer too', async () => {
    const refused = await client(() => json(400, { error: 'q is required: the words to search for' }))
      .api.search(' ')
      .catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(ApiError)
    expect((refused as ApiError).status).toBe(400)
    expect((refused as ApiError).message).toBe('q is required: the words to search for')
    const malformed = await client(() => json(200, { results: 'no' }))
      .api.search('x')
      .catch((e: unknown) => e)
    expect(malformed).toBeInstanceOf(ApiError)
  })

  it('passes its signal to fetch and rethrows the abort as it is', async () => {
    const controller = new AbortController()
    const { api, calls } = client(
      (call) =>
        new Promise<Response>((_, reject) => {
          call.signal?.addEventListener('abort', () => reject(call.signal?.reason))
        }),
    )
    const pending = api.search('kiwi', { signal: controller.signal }).catch((e: unknown) => e)
    controller.abort()
    const err = await pending
    expect(calls[0]?.signal).toBe(controller.signal)
    expect(err).not.toBeInstanceOf(ApiError)
    expect((err as Error).name).toBe('AbortError')
  })
})
