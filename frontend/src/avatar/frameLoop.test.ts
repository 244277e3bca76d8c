import { describe, expect, it } from 'vitest'
import { FrameLoop, MAX_STEP_SECONDS, type Frame, type FrameScheduler } from './frameLoop'
import { HOLD_CHECK_FPS, IDLE_FPS, SETTLE_MS, type RenderRate } from './renderPolicy'

const DISPLAY_MS = 1000 / 60

/**
 * A fake clock with timers and a 60 Hz display: animation frames run at each
 * display refresh (multiples of DISPLAY_MS) for the callbacks waiting then.
 */
class FakeClock implements FrameScheduler {
  private time = 0
  private nextId = 1
  private readonly frames = new Map<number, (now: number) => void>()
  private readonly timers = new Map<number, { due: number; cb: () => void }>()
  /** Every animation frame and timer ever asked for. */
  requested = { frames: 0, timers: 0 }

  now(): number {
    return this.time
  }

  request(cb: (now: number) => void): number {
    this.requested.frames++
    const id = this.nextId++
    this.frames.set(id, cb)
    return id
  }

  cancel(handle: number): void {
    this.frames.delete(handle)
  }

  after(ms: number, cb: () => void): number {
    this.requested.timers++
    const id = this.nextId++
    this.timers.set(id, { due: this.time + Math.max(0, ms), cb })
    return id
  }

  clear(handle: number): void {
    this.timers.delete(handle)
  }

  /** Animation frames and timers waiting now. */
  get pending(): number {
    return this.frames.size + this.timers.size
  }

  /** Moves the clock on by ms, running timers and display refreshes in order as their time comes. */
  advance(ms: number): void {
    const end = this.time + ms
    for (;;) {
      const refresh = this.frames.size > 0 ? (Math.floor(this.time / DISPLAY_MS + 1e-9) + 1) * DISPLAY_MS : Infinity
      let timer: [number, { due: number; cb: () => void }] | null = null
      for (const entry of this.timers) if (timer === null || entry[1].due < timer[1].due) timer = entry
      const next = Math.min(refresh, timer?.[1].due ?? Infinity)
      if (next > end + 1e-6) break // float sums of 1000/60 and 1000/15 land a hair off
      this.time = next
      if (timer !== null && timer[1].due === next) {
        this.timers.delete(timer[0])
        timer[1].cb()
      } else {
        const due = [...this.frames.values()]
        this.frames.clear()
        for (const cb of due) cb(this.time)
      }
    }
    this.time = Math.max(this.time, end)
  }

  /** The clock jumps ahead without running anything (a stalled page). */
  stall(ms: number): void {
    this.time += ms
  }
}

function setup() {
  const clock = new FakeClock()
  const frames: (Frame & { at: number })[] = []
  const rates: RenderRate[] = []
  const loop = new FrameLoop(
    (f) => {
      frames.push({ ...f, at: clock.now() })
    },
    {
      scheduler: clock,
      onRate: (r) => rates.push(r),
    },
  )
  return { clock, frames, rates, loop }
}

/** A loop that has drawn its first frame and idles. */
function idling() {
  const s = setup()
  s.loop.setPaused('loading', true)
  s.loop.setPaused('loading', false)
  return s
}

describe('FrameLoop', () => {
  it('draws one frame at once when it starts, then idles at most IDLE_FPS frames a second, without animation frames', () => {
    const { clock, frames, loop } = idling()
    expect(frames).toEqual([{ dt: 0, idle: false, at: 0 }])
    expect(loop.rate).toBe('idle')
    clock.advance(2000)
    expect(frames.length).toBe(1 + 2 * IDLE_FPS)
    expect(frames.slice(1).every((f) => f.idle)).toBe(true)
    expect(frames[1]?.dt).toBeCloseTo(1 / IDLE_FPS, 6)
    expect(clock.requested.frames).toBe(0)
  })

  it('looks at a held idle pose only HOLD_CHECK_FPS times a second, and at IDLE_FPS again once it draws', () => {
    const clock = new FakeClock()
    const frames: Frame[] = []
    let draws = true
    const loop = new FrameLoop(
      (f) => {
        frames.push(f)
        return !f.idle || draws
      },
      { scheduler: clock },
    )
    loop.wake()
    draws = false
    clock.advance(1000)
    // The first idle frame comes at the idle rate and holds; the rest at the hold rate.
    expect(frames.length).toBe(2 + Math.floor((1000 - 1000 / IDLE_FPS) / (1000 / HOLD_CHECK_FPS)))
    expect(frames.at(-1)?.dt).toBeCloseTo(1 / HOLD_CHECK_FPS, 6)
    draws = true
    const n = frames.length
    clock.advance(1000)
    expect(frames.length - n).toBeGreaterThanOrEqual(IDLE_FPS - 1)
    // An emote does not wait for the held pose's next look.
    draws = false
    clock.advance(1000 / IDLE_FPS)
    loop.setPlaying(true)
    const m = frames.length
    clock.advance(DISPLAY_MS)
    expect(frames.length).toBe(m + 1)
  })

  it('keeps running after a tick that throws', () => {
    const clock = new FakeClock()
    let ticks = 0
    const loop = new FrameLoop(
      () => {
        ticks++
        if (ticks === 2) throw new Error('boom')
      },
      { scheduler: clock },
    )
    loop.wake()
    expect(() => clock.advance(1000 / IDLE_FPS)).toThrow('boom')
    clock.advance(1000)
    expect(ticks).toBe(2 + IDLE_FPS)
  })

  it('draws every display refresh while an emote plays, and for a settle after it ends', () => {
    const { clock, frames, rates, loop } = idling()
    clock.advance(1000)
    loop.setPlaying(true)
    expect(loop.rate).toBe('display')
    const start = frames.length
    clock.advance(1000)
    const playing = frames.slice(start)
    expect(playing.length).toBe(60)
    expect(playing.every((f) => !f.idle)).toBe(true)
    expect(playing[1]?.dt).toBeCloseTo(DISPLAY_MS / 1000, 6)

    loop.setPlaying(false)
    const ended = clock.now()
    const before = frames.length
    clock.advance(SETTLE_MS + 200)
    const settling = frames.slice(before).filter((f) => f.at < ended + SETTLE_MS)
    expect(settling.length).toBeGreaterThanOrEqual(Math.floor(SETTLE_MS / DISPLAY_MS) - 1)
    expect(settling.every((f) => !f.idle)).toBe(true)
    const after = frames.slice(before).filter((f) => f.at >= ended + SETTLE_MS)
    expect(after.length).toBeLessThanOrEqual(Math.ceil((200 * IDLE_FPS) / 1000) + 1)
    expect(loop.rate).toBe('idle')
    expect(rates).toEqual(['idle', 'display', 'idle'])
  })

  it('draws every display refresh while speech plays, even with a still pose, and stops after', () => {
    const { clock, frames, loop } = idling()
    loop.setPaused('still', true)
    clock.advance(1000)
    expect(clock.pending).toBe(0)
    const n = frames.length
    loop.setFace('speaking')
    expect(loop.rate).toBe('display')
    clock.advance(500)
    const speaking = frames.slice(n)
    expect(speaking.length).toBeGreaterThanOrEqual(29)
    expect(speaking.every((f) => !f.idle)).toBe(true)
    loop.setFace('rest')
    expect(clock.pending).toBe(0)
    expect(loop.rate).toBe('stopped')
  })

  it('draws a moving face at the idle rate, every frame drawn, then idles again', () => {
    const clock = new FakeClock()
    const frames: Frame[] = []
    const loop = new FrameLoop(
      (f) => {
        frames.push(f)
        return !f.idle // the idle pose holds still
      },
      { scheduler: clock },
    )
    loop.wake()
    clock.advance(1000)
    const held = frames.length
    loop.setFace('moving')
    clock.advance(200)
    const moving = frames.slice(held)
    expect(moving.length).toBeGreaterThanOrEqual(Math.floor((200 * IDLE_FPS) / 1000))
    expect(moving.every((f) => !f.idle)).toBe(true)
    expect(clock.requested.frames).toBe(0)
    loop.setFace('rest')
    const n = frames.length
    clock.advance(1000)
    expect(frames.length - n).toBeLessThanOrEqual(HOLD_CHECK_FPS + 1)
  })

  it('draws the first display refresh after an emote starts, not the next idle frame', () => {
    const { clock, frames, loop } = idling()
    clock.advance(1000 / IDLE_FPS + 1) // just after an idle frame
    const n = frames.length
    loop.setPlaying(true)
    clock.advance(DISPLAY_MS)
    expect(frames.length).toBe(n + 1)
    expect(frames.at(-1)?.idle).toBe(false)
  })

  it('asks for nothing while the page is hidden, and draws one frame at once when it is shown', () => {
    const { clock, frames, rates, loop } = idling()
    loop.setPlaying(true)
    clock.advance(100)
    loop.setPaused('hidden', true)
    expect(clock.pending).toBe(0)
    expect(loop.running).toBe(false)
    expect(loop.rate).toBe('stopped')
    const n = frames.length
    const asked = { ...clock.requested }
    clock.advance(60_000)
    expect(frames.length).toBe(n)
    expect(clock.requested).toEqual(asked)

    loop.setPaused('hidden', false)
    expect(frames.length).toBe(n + 1)
    expect(frames.at(-1)).toEqual({ dt: 0, idle: false, at: clock.now() })
    expect(loop.rate).toBe('display')
    expect(rates).toEqual(['idle', 'display', 'stopped', 'display'])
  })

  it('asks for nothing while off screen or collapsed, whatever plays, until every reason is cleared', () => {
    const { clock, frames, loop } = idling()
    loop.setPaused('offscreen', true)
    loop.setPaused('collapsed', true)
    loop.setPlaying(true)
    loop.setPaused('offscreen', false)
    expect(clock.pending).toBe(0)
    clock.advance(5000)
    expect(frames.length).toBe(1)
    loop.setPaused('collapsed', false)
    expect(frames.length).toBe(2)
    expect(loop.isPaused('collapsed')).toBe(false)
  })

  it('holds the idle animation while the user types, and goes on when the typing stops', () => {
    const { clock, frames, loop } = idling()
    loop.setTyping(true)
    expect(clock.pending).toBe(0)
    expect(loop.rate).toBe('stopped')
    const n = frames.length
    clock.advance(5000)
    expect(frames.length).toBe(n)
    loop.setPlaying(true) // an emote plays even so
    expect(loop.rate).toBe('display')
    loop.setPlaying(false)
    clock.advance(SETTLE_MS + 100)
    expect(loop.rate).toBe('stopped')
    const m = frames.length
    loop.setTyping(false)
    expect(loop.rate).toBe('idle')
    clock.advance(1000)
    expect(frames.length).toBeGreaterThan(m)
  })

  it('stays stopped when hidden and unhidden while something else still holds it', () => {
    const { clock, frames, loop } = idling()
    loop.setPaused('still', true)
    loop.setPaused('hidden', true)
    loop.setPaused('hidden', false)
    clock.advance(5000)
    expect(frames.length).toBe(1)
    expect(clock.pending).toBe(0)
  })

  it('draws one frame at once on wake (a resize, a new clip), then keeps its rate', () => {
    const { clock, frames, loop } = idling()
    clock.advance(10)
    loop.wake()
    expect(frames.length).toBe(2)
    expect(frames[1]).toEqual({ dt: 0, idle: false, at: 10 })
    clock.advance(1000 / IDLE_FPS)
    expect(frames.length).toBe(3)
    expect(frames[2]?.idle).toBe(true)
  })

  it('wakes to nothing while paused', () => {
    const { clock, frames, loop } = idling()
    loop.setPaused('hidden', true)
    loop.wake()
    expect(frames.length).toBe(1)
    expect(clock.pending).toBe(0)
  })

  it('caps the step after a stall, so the pose does not jump', () => {
    const { clock, frames, loop } = idling()
    loop.setPlaying(true)
    clock.advance(DISPLAY_MS)
    clock.stall(5000)
    clock.advance(DISPLAY_MS)
    expect(frames.at(-1)?.dt).toBe(MAX_STEP_SECONDS)
  })

  it('reschedules once after a tick that changes its inputs', () => {
    const clock = new FakeClock()
    let ticks = 0
    const loop: FrameLoop = new FrameLoop(
      () => {
        ticks++
        loop.setPlaying(true)
      },
      { scheduler: clock },
    )
    loop.wake()
    expect(ticks).toBe(1)
    expect(clock.pending).toBe(1)
    clock.advance(1000)
    expect(ticks).toBe(61)
  })

  it('stops for good on dispose', () => {
    const { clock, frames, loop } = idling()
    loop.setPlaying(true)
    loop.dispose()
    loop.setPaused('loading', true)
    loop.setPaused('loading', false)
    loop.wake()
    clock.advance(5000)
    expect(frames.length).toBe(1)
    expect(clock.pending).toBe(0)
    expect(loop.rate).toBe('stopped')
  })
})
