import { describe, expect, it } from 'vitest'
import { ObjectUrlCache } from './objectUrls'

function urls() {
  let n = 0
  const live = new Set<string>()
  return {
    live,
    maker: {
      create: () => {
        const u = `blob:${++n}`
        live.add(u)
        return u
      },
      revoke: (u: string) => {
        if (!live.delete(u)) throw new Error(`revoked twice or never made: ${u}`)
      },
    },
  }
}

describe('ObjectUrlCache', () => {
  it('fetches a key once for every holder and keeps the last released ones, revoking older ones', async () => {
    const loads: string[] = []
    const u = urls()
    const cache = new ObjectUrlCache(
      async (key) => {
        loads.push(key)
        return new Blob([key])
      },
      2,
      u.maker,
    )
    const [a1, a2] = await Promise.all([cache.acquire('a'), cache.acquire('a')])
    expect(a1.url).toBe(a2.url)
    expect(loads).toEqual(['a'])
    a1.release()
    a1.release() // (twice is once)
    expect(u.live.size).toBe(1)
    a2.release()
    // Idle, kept: a, then b and c; a is the oldest idle one and goes.
    const b = await cache.acquire('b')
    const c = await cache.acquire('c')
    b.release()
    expect(u.live.has(a1.url)).toBe(true)
    c.release()
    expect(u.live.has(a1.url)).toBe(false)
    expect(u.live.size).toBe(2)
    expect(cache.size).toBe(2)
    // Taken again while idle: not fetched, and no longer idle.
    const b2 = await cache.acquire('b')
    expect(b2.url).toBe(b.url)
    expect(loads).toEqual(['a', 'b', 'c'])
    // A held URL is never revoked, however many others go idle.
    for (const k of ['d', 'e', 'f']) (await cache.acquire(k)).release()
    expect(u.live.has(b2.url)).toBe(true)
    const a3 = await cache.acquire('a')
    expect(loads.at(-1)).toBe('a')
    a3.release()
  })

  it('forgets a failed load: the next acquire loads again', async () => {
    let fail = true
    const cache = new ObjectUrlCache(async () => {
      if (fail) throw new Error('404')
      return new Blob(['x'])
    }, 4, urls().maker)
    await expect(cache.acquire('k')).rejects.toThrow('404')
    expect(cache.size).toBe(0)
    fail = false
    const ok = await cache.acquire('k')
    expect(ok.url).toMatch(/^blob:/)
  })
})
