import { describe, expect, it } from 'vitest'
import type { Cancel, Clock } from '../api'
import { EmotePlayback, type EmotePlay } from './emotePlayback'

/** Timers on a clock that moves only when the test advances it. */
class FakeClock implements Clock {
  now = 0
  private timers: { at: number; fn: () => void; id: number }[] = []
  private nextId = 0

  after(ms: number, fn: () => void): Cancel {
    const id = this.nextId++
    this.timers.push({ at: this.now + ms, fn, id })
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id)
    }
  }

  advance(ms: number): void {
    const end = this.now + ms
    for (;;) {
      const due = this.timers.filter((t) => t.at <= end).sort((a, b) => a.at - b.at)[0]
      if (due === undefined) break
      this.timers = this.timers.filter((t) => t !== due)
      this.now = due.at
      due.fn()
    }
    this.now = end
  }

  get pending(): number {
    return this.timers.length
  }
}

const wave = { emoteId: 'wave', glbPath: '/emotes/wave.glb', duration: 2.5, loop: false }
const dance = { emoteId: 'dance', glbPath: '/emotes/dance.glb', duration: 4, loop: true }
const idle = { emoteId: 'idle', glbPath: '/emotes/idle.glb', duration: 5, loop: true }

function setup() {
  const clock = new FakeClock()
  const playback = new EmotePlayback(clock)
  const seen: EmotePlay[] = []
  playback.subscribe(() => seen.push(playback.get()))
  const ids = () => seen.map((p) => p.id)
  return { clock, playback, seen, ids }
}

describe('EmotePlayback', () => {
  it('starts idle, looping', () => {
    const { playback } = setup()
    expect(playback.get()).toMatchObject({ id: 'idle', glbPath: '/emotes/idle.glb', loop: true })
  })

  it('returns a non-looping emote to idle after its duration', () => {
    const { clock, playback, ids } = setup()
    playback.start(wave)
    expect(playback.get()).toMatchObject({ id: 'wave', glbPath: '/emotes/wave.glb', loop: false, duration: 2.5 })
    clock.advance(2499)
    expect(playback.get().id).toBe('wave')
    clock.advance(1)
    expect(playback.get().id).toBe('idle')
    expect(ids()).toEqual(['wave', 'idle'])
    expect(clock.pending).toBe(0)
  })

  it('keeps a looping emote until the next emote', () => {
    const { clock, playback, ids } = setup()
    playback.start(dance)
    clock.advance(60_000)
    expect(playback.get().id).toBe('dance')
    playback.start(wave)
    clock.advance(2500)
    expect(ids()).toEqual(['dance', 'wave', 'idle'])
  })

  it('lets a newer emote cancel the pending return of an older one', () => {
    const { clock, playback, ids } = setup()
    playback.start(wave)
    clock.advance(2000)
    playback.start(dance)
    clock.advance(1000) // past the wave's 2.5 s
    expect(playback.get().id).toBe('dance')
    expect(clock.pending).toBe(0)
    expect(ids()).toEqual(['wave', 'dance'])
  })

  it('restarts the same emote with its full duration', () => {
    const { clock, playback, seen } = setup()
    playback.start(wave)
    clock.advance(2000)
    playback.start(wave)
    expect(seen.map((p) => p.seq)).toEqual([1, 2])
    clock.advance(2000)
    expect(playback.get().id).toBe('wave')
    clock.advance(500)
    expect(playback.get().id).toBe('idle')
  })

  it('stops at once with stop() or the idle emote', () => {
    const { clock, playback, ids } = setup()
    playback.start(dance)
    playback.stop()
    expect(playback.get().id).toBe('idle')
    playback.start(wave)
    playback.start(idle)
    expect(playback.get()).toMatchObject({ id: 'idle', loop: true })
    clock.advance(10_000)
    expect(ids()).toEqual(['dance', 'idle', 'wave', 'idle'])
    playback.stop()
    expect(ids()).toHaveLength(4) // already idle: no change
  })

  it('uses the idle clip path from the catalog or the last idle frame', () => {
    const { playback, seen } = setup()
    playback.setIdleGlb('/emotes/idle2.glb')
    expect(playback.get()).toMatchObject({ id: 'idle', glbPath: '/emotes/idle2.glb' })
    playback.start(wave)
    playback.start({ ...idle, glbPath: '/emotes/idle3.glb' })
    expect(playback.get().glbPath).toBe('/emotes/idle3.glb')
    expect(seen).toHaveLength(3)
  })

  it('returns with a zero duration on the next tick; stop cancels the pending return', () => {
    const { clock, playback } = setup()
    playback.start({ ...wave, duration: 0 })
    expect(playback.get().id).toBe('wave')
    clock.advance(0)
    expect(playback.get().id).toBe('idle')
    playback.start(wave)
    playback.stop()
    expect(clock.pending).toBe(0)
  })
})
