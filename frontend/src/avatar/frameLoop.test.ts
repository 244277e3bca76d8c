import { describe, expect, it } from 'vitest'
import { FrameLoop, MAX_STEP_SECONDS, type FrameScheduler } from './frameLoop'

/** Animation frames the test hands out at a fixed display rate. */
class FakeFrames implements FrameScheduler {
  now = 0
  private next = 1
  private pending = new Map<number, (now: number) => void>()

  request(cb: (now: number) => void): number {
    const id = this.next++
    this.pending.set(id, cb)
    return id
  }

  cancel(handle: number): void {
    this.pending.delete(handle)
  }

  get waiting(): number {
    return this.pending.size
  }

  /** Runs n display frames of ms each. */
  run(n: number, ms = 1000 / 60): void {
    for (let i = 0; i < n; i++) {
      this.now += ms
      const due = [...this.pending.values()]
      this.pending.clear()
      for (const cb of due) cb(this.now)
    }
  }
}

function setup() {
  const frames = new FakeFrames()
  const ticks: number[] = []
  const loop = new FrameLoop((dt) => ticks.push(dt), frames, 30)
  return { frames, ticks, loop }
}

describe('FrameLoop', () => {
  it('ticks about 30 times a second on a 60 Hz display', () => {
    const { frames, ticks, loop } = setup()
    loop.setPaused('loading', false)
    frames.run(120) // two seconds
    expect(ticks.length).toBeGreaterThanOrEqual(59)
    expect(ticks.length).toBeLessThanOrEqual(61)
    expect(ticks[0]).toBe(0)
    expect(ticks[1]).toBeCloseTo(1 / 30, 3)
  })

  it('asks for no frames while paused, and starts with a zero step after it', () => {
    const { frames, ticks, loop } = setup()
    loop.setPaused('hidden', true)
    expect(frames.waiting).toBe(0)
    loop.setPaused('offscreen', true)
    loop.setPaused('hidden', false)
    expect(loop.running).toBe(false)
    frames.run(10)
    expect(ticks).toEqual([])
    loop.setPaused('offscreen', false)
    expect(loop.running).toBe(true)
    frames.run(1, 5000)
    frames.run(1, 5000)
    expect(ticks).toEqual([0, MAX_STEP_SECONDS])
  })

  it('stops for good on dispose', () => {
    const { frames, loop } = setup()
    loop.setPaused('x', false)
    loop.dispose()
    loop.setPaused('x', false)
    expect(frames.waiting).toBe(0)
  })
})
