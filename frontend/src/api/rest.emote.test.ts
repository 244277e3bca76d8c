import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'

const catalog = {
  avatar: '/avatar/wisp.glb',
  emotes: [
    {
      id: 'wave',
      name: 'Wave',
      description: 'Waves hello',
      category: 'greeting',
      glbPath: '/emotes/wave.glb',
      duration: 2.5,
      loop: false,
      source: 'builtin',
      status: 'Waving 👋',
    },
  ],
}

describe('ApiClient emote calls', () => {
  it('lists the emotes with the token', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, catalog))
    const api = new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch })
    await expect(api.listEmotes()).resolves.toEqual(catalog)
    expect(calls[0]).toMatchObject({ url: 'http://h/api/emotes', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('plays an emote', async () => {
    const { fetch, calls } = fakeFetch(() => json(200, { ok: true }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).playEmote('wave')).resolves.toEqual({ ok: true })
    expect(calls[0]).toMatchObject({ url: 'http://h/api/emote', method: 'POST', body: { emoteId: 'wave' } })
    expect(calls[0]?.headers['Content-Type']).toBe('application/json')
  })

  it("surfaces the server's error text", async () => {
    for (const error of ['Unknown emote: nope', 'emoteId is required']) {
      const { fetch } = fakeFetch(() => json(400, { error }))
      const err = await new ApiClient({ baseURL: 'http://h', fetch }).playEmote('nope').catch((e: unknown) => e)
      expect(err).toBeInstanceOf(ApiError)
      expect((err as ApiError).status).toBe(400)
      expect((err as ApiError).message).toBe(error)
    }
  })

  it('rejects a malformed catalog', async () => {
    const { fetch } = fakeFetch(() => json(200, { emotes: 'no' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).listEmotes()).rejects.toThrow('malformed emotes response')
  })

  it('resolves asset paths against the API base', () => {
    const api = new ApiClient({ baseURL: 'http://127.0.0.1:4000/', fetch: fakeFetch(() => json(200, {})).fetch })
    expect(api.assetURL('/avatar/wisp.glb')).toBe('http://127.0.0.1:4000/avatar/wisp.glb')
  })
})
