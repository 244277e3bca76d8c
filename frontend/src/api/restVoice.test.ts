// The API client's voice: POST /api/speech (the JSON body, the audio answer,
// the server's errors, an abort) and POST /api/transcriptions (a raw WAV body
// with the upload header and the token, the {text} answer).

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { json, recorder } from './fakeFetch.test-util'

describe('ApiClient.voice.speak', () => {
  it('posts {text, voice} with the token and answers the audio bytes', async () => {
    const wav = new Uint8Array([0x52, 0x49, 0x46, 0x46, 1, 2])
    const { fetch, sent } = recorder(() => new Response(wav, { status: 200, headers: { 'Content-Type': 'audio/wav' } }))
    const api = new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch })
    const ctrl = new AbortController()
    const got = await api.voice.speak('Hello.', 'nova', ctrl.signal)
    expect(new Uint8Array(got)).toEqual(wav)
    expect(sent[0]?.url).toBe('http://h/api/speech')
    expect(sent[0]?.method).toBe('POST')
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ text: 'Hello.', voice: 'nova' })
    expect(sent[0]?.headers['Content-Type']).toBe('application/json')
    expect(sent[0]?.headers.Authorization).toBe('Bearer tok')
    expect(sent[0]?.signal).toBe(ctrl.signal)
  })

  it('leaves the voice out when none is chosen', async () => {
    const { fetch, sent } = recorder(() => new Response(new Uint8Array(4)))
    await new ApiClient({ baseURL: 'http://h', fetch }).voice.speak('Hi.')
    expect(JSON.parse(String(sent[0]?.body))).toEqual({ text: 'Hi.' })
  })

  it("rejects with the server's message", async () => {
    const { fetch } = recorder(() => json(503, { error: 'speech is not set up: Settings → Voice' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch }).voice.speak('Hi.').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(503)
    expect((err as ApiError).message).toMatch(/Settings → Voice/)
  })

  it('rejects with the abort when aborted', async () => {
    const fetch: typeof globalThis.fetch = (_input, init) =>
      new Promise((_res, rej) => init?.signal?.addEventListener('abort', () => rej(new DOMException('aborted', 'AbortError'))))
    const ctrl = new AbortController()
    const p = new ApiClient({ baseURL: 'http://h', fetch }).voice.speak('Hi.', undefined, ctrl.signal)
    ctrl.abort()
    await expect(p).rejects.toMatchObject({ name: 'AbortError' })
  })
})

describe('ApiClient.voice.transcribe', () => {
  it('posts the WAV raw, as audio/wav with the upload header and the token, and answers its text', async () => {
    const { fetch, sent } = recorder(() => json(200, { text: 'What is the weather like today?' }))
    const api = new ApiClient({ baseURL: 'http://h', token: 'tok', fetch })
    const wav = new Blob([new Uint8Array(44)], { type: 'audio/wav' })
    expect(await api.voice.transcribe(wav)).toBe('What is the weather like today?')
    expect(sent[0]?.url).toBe('http://h/api/transcriptions')
    expect(sent[0]?.headers['Content-Type']).toBe('audio/wav')
    expect(sent[0]?.headers['X-Wisp-Upload']).toBe('1')
    expect(sent[0]?.headers.Authorization).toBe('Bearer tok')
    expect(sent[0]?.body).toBe(wav)
  })

  it('says audio/wav for a Blob without a type', async () => {
    const { fetch, sent } = recorder(() => json(200, { text: '' }))
    expect(await new ApiClient({ baseURL: 'http://h', fetch }).voice.transcribe(new Blob([new Uint8Array(44)]))).toBe('')
    expect(sent[0]?.headers['Content-Type']).toBe('audio/wav')
  })

  it('refuses an answer that is not {text}', async () => {
    const { fetch } = recorder(() => json(200, { words: 'x' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).voice.transcribe(new Blob([]))).rejects.toThrow(/malformed transcription/)
  })

  it("rejects with the server's error (an upstream failure)", async () => {
    const { fetch } = recorder(() => json(502, { error: 'the transcription server said: bad audio' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).voice.transcribe(new Blob([]))).rejects.toMatchObject({ status: 502 })
  })
})
