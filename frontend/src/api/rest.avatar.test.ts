// The API client's avatar: GET, the upload (raw bytes, X-Wisp-Upload, auth,
// the server's refusal shown as it is) and DELETE of /api/avatar.

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { json } from './fakeFetch.test-util'

interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: BodyInit | null | undefined
}

function recorder(respond: (s: Sent) => Response) {
  const sent: Sent[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const s = { url: String(input), method: init?.method ?? 'GET', headers: { ...(init?.headers as Record<string, string>) }, body: init?.body }
    sent.push(s)
    return respond(s)
  }
  return { fetch, sent }
}

const vrm = { kind: 'vrm', url: '/avatar/user.vrm?v=3f2a9c1e', name: 'Alicia.vrm', size: 1048, vrmVersion: '1' }

describe('ApiClient.avatar', () => {
  it('uploads the VRM bytes with the upload header and the token, and decodes the avatar', async () => {
    const { fetch, sent } = recorder(() => json(201, vrm))
    const api = new ApiClient({ baseURL: 'http://h/', token: 'tok', fetch })
    const file = new File([new Uint8Array([0x67, 0x6c, 0x54, 0x46])], 'Alicia.vrm', { type: 'model/vrml' })
    expect(await api.avatar.upload(file, 'Alicia é.vrm')).toEqual(vrm)
    const s = sent[0]!
    expect(s.url).toBe('http://h/api/avatar?name=Alicia%20%C3%A9.vrm')
    expect(s.method).toBe('POST')
    expect(s.body).toBe(file)
    expect(s.headers).toEqual({
      Accept: 'application/json',
      Authorization: 'Bearer tok',
      'Content-Type': 'model/gltf-binary', // whatever the browser called the file
      'X-Wisp-Upload': '1',
    })
  })

  it('shows the server refusal as it is', async () => {
    const { fetch } = recorder(() => json(400, { error: 'not a VRM model: no humanoid bones' }))
    const err = await new ApiClient({ baseURL: 'http://h', fetch }).avatar.upload(new Blob(['x']), 'x.vrm').catch((e: unknown) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect((err as ApiError).status).toBe(400)
    expect((err as ApiError).message).toBe('not a VRM model: no humanoid bones')
  })

  it('reads the current character and goes back to the built-in one', async () => {
    const { fetch, sent } = recorder((s) => (s.method === 'GET' ? json(200, vrm) : json(200, { kind: 'builtin', url: '/avatar/wisp.glb' })))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    expect(await api.avatar.get()).toEqual(vrm)
    expect(await api.avatar.useBuiltin()).toEqual({ kind: 'builtin', url: '/avatar/wisp.glb' })
    expect(sent.map((s) => `${s.method} ${s.url}`)).toEqual(['GET http://h/api/avatar', 'DELETE http://h/api/avatar'])
    expect(sent[1]!.headers['X-Wisp-Upload']).toBeUndefined()
  })

  it('refuses an answer that is not an avatar', async () => {
    const { fetch } = recorder(() => json(200, { kind: 'robot' }))
    await expect(new ApiClient({ baseURL: 'http://h', fetch }).avatar.get()).rejects.toThrow('malformed avatar response')
  })
})
