import { describe, expect, it } from 'vitest'
import { decodeServerMessage } from './decode'
import { decodeEmote, decodeEmoteCatalog, decodeEmoteMessage, isRootPath } from './emoteDecode'

const wave = {
  id: 'wave',
  name: 'Wave',
  description: 'Waves hello',
  category: 'greeting',
  glbPath: '/emotes/wave.glb',
  duration: 2.5,
  loop: false,
  source: 'builtin',
  status: 'Waving 👋',
}

describe('decodeEmoteCatalog', () => {
  it('decodes the contract example', () => {
    expect(decodeEmoteCatalog({ avatar: '/avatar/wisp.glb', emotes: [wave] })).toEqual({
      avatar: '/avatar/wisp.glb',
      emotes: [wave],
    })
  })

  it('leaves out emotes without id, name or clip path, and repeated ids', () => {
    const catalog = decodeEmoteCatalog({
      avatar: '/avatar/wisp.glb',
      emotes: [wave, { ...wave, id: '' }, { ...wave, id: 'x', glbPath: 5 }, { ...wave, id: 'y', name: null }, 'z', wave],
    })
    expect(catalog?.emotes.map((e) => e.id)).toEqual(['wave'])
  })

  it('rejects a body without an avatar path or an emote list', () => {
    expect(decodeEmoteCatalog({ emotes: [] })).toBeNull()
    expect(decodeEmoteCatalog({ avatar: '/avatar/wisp.glb' })).toBeNull()
    expect(decodeEmoteCatalog({ avatar: 'http://elsewhere/a.glb', emotes: [] })).toBeNull()
    expect(decodeEmoteCatalog([])).toBeNull()
  })
})

describe('decodeEmote', () => {
  it('fills neutral defaults for secondary fields', () => {
    expect(decodeEmote({ id: 'spin', name: '', glbPath: '/emotes/spin.glb', category: ' Party ', duration: -1, source: 'x' }))
      .toEqual({
        id: 'spin',
        name: 'spin',
        description: '',
        category: 'party',
        glbPath: '/emotes/spin.glb',
        duration: 0,
        loop: false,
        source: 'user',
        status: '',
      })
    expect(decodeEmote({ id: 'a', name: 'A', glbPath: '/emotes/a.glb', category: '' })?.category).toBe('other')
  })
})

describe('isRootPath', () => {
  it('accepts root-relative paths only', () => {
    expect(isRootPath('/emotes/wave.glb')).toBe(true)
    for (const bad of ['emotes/wave.glb', '//evil.example/x.glb', 'https://x/y.glb', '/a\\b', 3, null]) {
      expect(isRootPath(bad)).toBe(false)
    }
  })
})

describe('emote frames', () => {
  it('decodes the contract frame through decodeServerMessage', () => {
    expect(
      decodeServerMessage('{"type":"emote","emoteId":"wave","glbPath":"/emotes/wave.glb","duration":2.5,"loop":false}'),
    ).toEqual({ type: 'emote', emoteId: 'wave', glbPath: '/emotes/wave.glb', duration: 2.5, loop: false })
  })

  it('rejects a frame without its emote id or clip path', () => {
    expect(decodeServerMessage('{"type":"emote","emoteId":"wave"}')).toBeNull()
    expect(decodeServerMessage('{"type":"emote","glbPath":"/emotes/wave.glb"}')).toBeNull()
  })

  it('defaults duration and loop', () => {
    expect(decodeEmoteMessage({ emoteId: 'idle', glbPath: '/emotes/idle.glb', duration: 'x' })).toEqual({
      type: 'emote',
      emoteId: 'idle',
      glbPath: '/emotes/idle.glb',
      duration: 0,
      loop: false,
    })
  })
})
