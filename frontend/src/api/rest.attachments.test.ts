// The API client's attachments: the upload (raw bytes, its type, X-Wisp-Upload,
// auth, the server's errors, an abort), bytes and thumbnails as cached object
// URLs, attachments in send and edit bodies, and the zip in export and import.

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { json, recorder } from './fakeFetch.test-util'

const stored = { id: 'att_1', name: 'shot 1.png', mime: 'image/png', size: 4, sha256: 'ab'.repeat(32), kind: 'image', width: 2, height: 1 }

describe('ApiClient.uploadAttachment', () => {
  it('posts the raw bytes with their type, the upload header and the token, and decodes the attachment', async () => {
    const { fetch, sent } = recorder(() => json(201, { attachment: stored }))
    const api = new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch })
    const file = new File([new Uint8Array([1, 2, 3, 4])], 'shot 1.png', { type: 'image/png' })
    const got = await api.uploadAttachment(file, 'shot 1/é.png')
    expect(got).toEqual(stored)
    expect(sent).toHaveLength(1)
    const s = sent[0]!
    expect(s.url).toBe('http://h/api/attachments?name=shot%201%2F%C3%A9.png')
    expect(s.method).toBe('POST')
    expect(s.body).toBe(file)
    expect(s.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer tok',
      'Content-Type': 'image/png',
      'X-Wisp-Upload': '1',
    })
  })

  it('sends a file of no known type as application/octet-stream, and no Authorization without a token', async () => {
    const { fetch, sent } = recorder(() => json(201, { attachment: { ...stored, kind: 'file', mime: 'application/octet-stream' } }))
    await new ApiClient({ baseURL: 'http://h', fetch }).uploadAttachment(new Blob(['x']), 'data.bin')
    expect(sent[0]!.headers['Content-Type']).toBe('application/octet-stream')
    expect(sent[0]!.headers.Authorization).toBeUndefined()
  })

  it("rejects with the server's message (413 beyond a limit), a lost connection, and a body not its shape", async () => {
    const big = recorder(() => json(413, { error: 'the file is larger than 20 MiB' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: big.fetch }).uploadAttachment(new Blob(['x']), 'a')).rejects.toEqual(
      new ApiError(413, 'the file is larger than 20 MiB'),
    )
    const plain = recorder(() => new Response('Bad Gateway', { status: 502, statusText: 'Bad Gateway' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: plain.fetch }).uploadAttachment(new Blob(['x']), 'a')).rejects.toEqual(
      new ApiError(502, '502 Bad Gateway'),
    )
    const down: typeof fetch = async () => {
      throw new TypeError('Failed to fetch')
    }
    const err = await new ApiClient({ baseURL: 'http://h', fetch: down }).uploadAttachment(new Blob(['x']), 'a').catch((e: unknown) => e)
    expect(err).toEqual(new ApiError(0, 'cannot reach the Wisp server: Failed to fetch'))
    const odd = recorder(() => json(201, { attachment: { id: 'x' } }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch: odd.fetch }).uploadAttachment(new Blob(['x']), 'a')).rejects.toEqual(
      new ApiError(200, 'malformed attachment response'),
    )
  })

  it('passes the signal, and an abort rejects with the abort itself', async () => {
    const { fetch, sent } = recorder(
      (s) =>
        new Promise<Response>((_, reject) => {
          s.signal?.addEventListener('abort', () => reject(s.signal?.reason))
        }),
    )
    const ctrl = new AbortController()
    const upload = new ApiClient({ baseURL: 'http://h', fetch }).uploadAttachment(new Blob(['x']), 'a', { signal: ctrl.signal })
    await Promise.resolve()
    expect(sent[0]!.signal).toBe(ctrl.signal)
    ctrl.abort()
    const err = await upload.catch((e: unknown) => e)
    expect(err).not.toBeInstanceOf(ApiError)
    expect((err as Error).name).toBe('AbortError')
  })
})

describe('ApiClient attachment bytes', () => {
  it('fetches the bytes with the auth header once per id while shown or lately shown, as an object URL', async () => {
    const { fetch, sent } = recorder((s) => new Response(s.url.endsWith('/thumbnail') ? 'thumb' : 'full bytes', { status: 200 }))
    const api = new ApiClient({ baseURL: 'http://h', token: 'tok', fetch })
    const a = await api.attachmentBlob('att/1')
    const b = await api.attachmentBlob('att/1')
    expect(a.url).toBe(b.url)
    expect(a.url).toMatch(/^blob:/)
    expect(sent.map((s) => s.url)).toEqual(['http://h/api/attachments/att%2F1'])
    expect(sent[0]!.headers.Authorization).toBe('Bearer tok')
    expect(await (await globalThis.fetch(a.url)).text()).toBe('full bytes')
    a.release()
    b.release()
    // Released, it stays among the recent ones: shown again, nothing is fetched.
    const again = await api.attachmentBlob('att/1')
    expect(again.url).toBe(a.url)
    expect(sent).toHaveLength(1)
    again.release()

    const t = await api.attachmentThumbnail('att/1')
    expect(sent.map((s) => s.url).at(-1)).toBe('http://h/api/attachments/att%2F1/thumbnail')
    expect(t.url).not.toBe(a.url)
    expect(await (await globalThis.fetch(t.url)).text()).toBe('thumb')
    t.release()
  })

  it("rejects with the server's error, and tries again next time", async () => {
    let fail = true
    const { fetch, sent } = recorder(() => (fail ? json(404, { error: 'no such attachment' }) : new Response('ok')))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.attachmentThumbnail('gone')).rejects.toEqual(new ApiError(404, 'no such attachment'))
    fail = false
    const ok = await api.attachmentThumbnail('gone')
    expect(sent).toHaveLength(2)
    ok.release()
  })
})

describe('ApiClient messages with attachments', () => {
  it('sends the ids in stream and edit bodies', async () => {
    const { fetch, sent } = recorder(() => new Response('', { status: 200, headers: { 'Content-Type': 'text/event-stream' } }))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await api.streamMessage('c1', { text: '', attachments: ['att_1', 'att_2'] })
    await api.editMessage('c1', 'm1', { text: 'again', attachments: [] })
    expect(JSON.parse(String(sent[0]!.body))).toEqual({ text: '', attachments: ['att_1', 'att_2'] })
    expect(JSON.parse(String(sent[1]!.body))).toEqual({ text: 'again', attachments: [] })
  })
})

describe('ApiClient export and import as a zip', () => {
  it('asks for format=zip with Accept application/zip', async () => {
    const { fetch, sent } = recorder(() => new Response(new Uint8Array([0x50, 0x4b, 3, 4]), { status: 200 }))
    const file = await new ApiClient({ baseURL: 'http://h', fetch }).exportConversations('c1', 'zip')
    expect(sent[0]!.url).toBe('http://h/api/conversations/c1/export?format=zip')
    expect(sent[0]!.headers.Accept).toBe('application/zip')
    expect(file.filename).toBe('wisp-export.zip')
  })

  it('imports a zip as application/zip with the upload header, and JSON as before', async () => {
    const result = { imported: 1, skipped: 0, conversations: ['c1'], failed: [] }
    const { fetch, sent } = recorder(() => json(200, result))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    // Known by its first bytes, whatever it is called.
    await api.importConversations(new Blob([new Uint8Array([0x50, 0x4b, 3, 4, 9])]))
    await api.importConversations(new Blob(['{"format":"wisp-export"}'], { type: 'application/json' }))
    expect(sent[0]!.headers['Content-Type']).toBe('application/zip')
    expect(sent[0]!.headers['X-Wisp-Upload']).toBe('1')
    expect(sent[1]!.headers['Content-Type']).toBe('application/json')
    expect(sent[1]!.headers['X-Wisp-Upload']).toBeUndefined()
  })
})
