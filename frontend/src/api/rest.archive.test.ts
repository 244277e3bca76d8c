import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'

const result = { imported: 1, skipped: 0, conversations: ['c1'], failed: [] }

describe('ApiClient export and import', () => {
  it('exports one conversation as a file named by the server', async () => {
    const { fetch, calls } = fakeFetch(
      () =>
        new Response('# Chat\n', {
          status: 200,
          headers: { 'Content-Type': 'text/markdown; charset=utf-8', 'Content-Disposition': 'attachment; filename=wisp-chat-20261121-090000.md' },
        }),
    )
    const api = new ApiClient({ baseURL: 'http://h', token: 'tok', fetch })
    const file = await api.exportConversations('c/1', 'md')
    expect(calls[0]).toMatchObject({ url: 'http://h/api/conversations/c%2F1/export?format=md', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
    expect(file.filename).toBe('wisp-chat-20261121-090000.md')
    expect(await file.blob.text()).toBe('# Chat\n')
  })

  it('exports every conversation, with a name of its own when the server gives none', async () => {
    const { fetch, calls } = fakeFetch(() => new Response('{}', { status: 200 }))
    const file = await new ApiClient({ baseURL: 'http://h', fetch }).exportConversations(null, 'json')
    expect(calls[0]?.url).toBe('http://h/api/export?format=json')
    expect(file.filename).toBe('wisp-export.json')
  })

  it("surfaces the server's error and a lost connection", async () => {
    const missing = fakeFetch(() => json(404, { error: 'conversation not found' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: missing.fetch }).exportConversations('x', 'json')).rejects.toEqual(
      new ApiError(404, 'conversation not found'),
    )
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch')
    }
    const err = await new ApiClient({ baseURL: 'http://h', fetch: down }).exportConversations(null, 'md').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(0)
  })

  it('sends the file to import as it is, and decodes the answer', async () => {
    const sent: { url: string; headers: Record<string, string>; body: unknown }[] = []
    const fetch: typeof globalThis.fetch = async (input, init) => {
      sent.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) }, body: init?.body })
      return json(200, result)
    }
    const file = new Blob(['[{"mapping":{}}]'], { type: '' })
    const api = new ApiClient({ baseURL: 'http://h', token: 'tok', fetch })
    await expect(api.importConversations(file)).resolves.toEqual(result)
    expect(sent[0]?.url).toBe('http://h/api/import?format=auto')
    expect(sent[0]?.headers['Content-Type']).toBe('application/json')
    expect(sent[0]?.headers.Authorization).toBe('Bearer tok')
    expect(sent[0]?.body).toBe(file)
    await api.importConversations(file, 'chatgpt')
    expect(sent[1]?.url).toBe('http://h/api/import?format=chatgpt')
  })

  it("surfaces the server's refusal of a file", async () => {
    for (const [status, error] of [
      [400, 'version 9 is not one this Wisp reads (1): use a Wisp of that version'],
      [413, 'request body is larger than 67108864 bytes'],
    ] as const) {
      const { fetch } = fakeFetch(() => json(status, { error }))
      await expect(new ApiClient({ baseURL: 'http://h', fetch }).importConversations(new Blob(['x']))).rejects.toEqual(
        new ApiError(status, error),
      )
    }
    const odd = fakeFetch(() => json(200, { imported: 'many' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: odd.fetch }).importConversations(new Blob(['x']))).rejects.toThrow(
      'malformed import response',
    )
  })
})
