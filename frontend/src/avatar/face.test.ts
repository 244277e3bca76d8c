import { describe, expect, it } from 'vitest'
import {
  BLEND_IN_MS,
  BLINK_CLOSE_MS,
  BLINK_MAX_MS,
  BLINK_MIN_MS,
  BLINK_OPEN_MS,
  DEFAULT_HOLD_MS,
  DOUBLE_BLINK_GAP_MS,
  FADE_MS,
  FaceController,
  GLANCE_MIN_MS,
  MOUTH_GATE,
  type FacePreset,
  type FaceTarget,
} from './face'

/** A face that has only some presets (as a model may): the others are skipped, as real targets do. */
class FakeFace implements FaceTarget {
  readonly weights = new Map<string, number>()
  constructor(private readonly has: ReadonlySet<string> | null = null) {}
  set(name: FacePreset, weight: number): void {
    if (this.has !== null && !this.has.has(name)) return
    this.weights.set(name, weight)
  }
  w(name: FacePreset): number {
    return this.weights.get(name) ?? 0
  }
}

/** A clock the test moves, and a random that replays a list (then 0.5). */
function setup(randoms: number[] = [], opts: { reduced?: boolean; has?: string[] } = {}) {
  let time = 1000
  const face = new FakeFace(opts.has === undefined ? null : new Set(opts.has))
  const list = [...randoms]
  const ctl = new FaceController(face, { now: () => time, random: () => list.shift() ?? 0.5, reduced: opts.reduced ?? false })
  return {
    face,
    ctl,
    at: (t: number) => (time = t),
    step: (ms: number, level: number | null = null) => {
      time += ms
      return ctl.update(level)
    },
    get time() {
      return time
    },
  }
}

describe('FaceController: the mouth', () => {
  it('opens with the speech, stays shut below the gate, and shuts at once when speech stops', () => {
    const f = setup()
    f.ctl.update(null)
    expect(f.step(16, MOUTH_GATE / 2)).toBe('speaking')
    expect(f.face.w('aa')).toBe(0)
    for (let i = 0; i < 20; i++) f.step(16, 0.5)
    expect(f.face.w('aa')).toBeGreaterThan(0.95)
    expect(f.ctl.state.mouth).toBe(f.face.w('aa'))
    // Smoothed: one quiet frame does not slam it shut.
    f.step(16, 0)
    expect(f.face.w('aa')).toBeGreaterThan(0.5)
    // Silence closes it fully (not to a residue).
    for (let i = 0; i < 30; i++) f.step(16, 0.01)
    expect(f.face.w('aa')).toBe(0)
    for (let i = 0; i < 5; i++) f.step(16, 0.5)
    expect(f.face.w('aa')).toBeGreaterThan(0)
    expect(f.step(16, null)).not.toBe('speaking')
    expect(f.face.w('aa')).toBe(0)
  })
})

describe('FaceController: blinks', () => {
  it('blinks at the drawn random interval, closing then opening, and counts it', () => {
    // randoms: first blink at 0.25 of the range, glance far away, no double blink.
    const f = setup([0.25, 0.99, 0.9, 0.5])
    const due = 1000 + BLINK_MIN_MS + 0.25 * (BLINK_MAX_MS - BLINK_MIN_MS)
    expect(f.ctl.nextChangeAt()).toBe(due)
    f.at(due - 1)
    expect(f.ctl.update(null)).toBe('rest')
    expect(f.ctl.state.blinks).toBe(0)
    f.at(due + BLINK_CLOSE_MS)
    expect(f.ctl.update(null)).toBe('moving')
    expect(f.face.w('blink')).toBe(1)
    expect(f.ctl.state.blinks).toBe(1)
    f.at(due + BLINK_CLOSE_MS + BLINK_OPEN_MS / 2)
    expect(f.face.w('blink')).toBe(1) // not drawn yet
    f.ctl.update(null)
    expect(f.face.w('blink')).toBeCloseTo(0.5)
    f.at(due + BLINK_CLOSE_MS + BLINK_OPEN_MS)
    expect(f.ctl.update(null)).toBe('rest')
    expect(f.face.w('blink')).toBe(0)
    // The next one within 2–6 s of this one.
    const next = f.ctl.nextChangeAt()
    expect(next - due).toBeGreaterThanOrEqual(BLINK_MIN_MS)
    expect(next - due).toBeLessThanOrEqual(BLINK_MAX_MS)
  })

  it('sometimes blinks twice', () => {
    const f = setup([0, 0.99, 0.1])
    const due = 1000 + BLINK_MIN_MS
    f.at(due + 10)
    f.ctl.update(null)
    expect(f.ctl.nextChangeAt()).toBe(due + DOUBLE_BLINK_GAP_MS)
    f.at(due + DOUBLE_BLINK_GAP_MS + 10)
    f.ctl.update(null)
    expect(f.ctl.state.blinks).toBe(2)
    // Never three in a row.
    expect(f.ctl.nextChangeAt()).toBeGreaterThanOrEqual(due + DOUBLE_BLINK_GAP_MS + BLINK_MIN_MS)
  })

  it('skips a blink missed while nothing was drawn', () => {
    const f = setup([0, 0.99, 0.5])
    f.at(1000 + BLINK_MIN_MS + 5000)
    expect(f.ctl.update(null)).toBe('rest')
    expect(f.ctl.state.blinks).toBe(0)
    expect(f.ctl.nextChangeAt()).toBeGreaterThan(f.time)
  })

  it('does not blink or glance with reduced motion', () => {
    const f = setup([0, 0], { reduced: true })
    expect(f.ctl.nextChangeAt()).toBe(Infinity)
    f.at(60_000)
    expect(f.ctl.update(null)).toBe('rest')
    expect(f.ctl.state.blinks).toBe(0)
    expect(f.face.w('lookLeft') + f.face.w('lookRight')).toBe(0)
  })
})

describe('FaceController: glances', () => {
  it('looks aside a little, holds, and looks back', () => {
    // Blink far off; glance at its minimum; side +, level; amount 0.5 of range; hold.
    const f = setup([0.999, 0, 0.9, 0.9, 0.1, 0.9, 0.5, 0.5]) // the blink just before it takes two
    const due = 1000 + GLANCE_MIN_MS
    f.at(due)
    expect(f.ctl.update(null)).toBe('moving')
    f.at(due + 400)
    f.ctl.update(null)
    const left = f.face.w('lookLeft')
    expect(left).toBeGreaterThan(0.3)
    expect(left).toBeLessThanOrEqual(0.6)
    expect(f.face.w('lookRight')).toBe(0)
    f.at(due + 10_000)
    f.ctl.update(null)
    f.at(due + 10_001)
    expect(f.ctl.update(null)).toBe('rest')
    expect(f.face.w('lookLeft')).toBe(0)
  })
})

describe('FaceController: expressions', () => {
  it('blends in, holds for the cue, fades back to neutral', () => {
    const f = setup([0.99, 0.99])
    f.ctl.update(null)
    f.ctl.express({ expression: 'happy', intensity: 0.8, durationMs: 1000 })
    expect(f.step(BLEND_IN_MS / 2)).toBe('moving')
    expect(f.face.w('happy')).toBeCloseTo(0.5)
    expect(f.ctl.state.expression).toBe('happy')
    f.step(BLEND_IN_MS)
    expect(f.face.w('happy')).toBeCloseTo(0.8)
    expect(f.step(10)).toBe('rest')
    expect(f.ctl.nextChangeAt()).toBe(1000 + BLEND_IN_MS + 1000)
    f.at(1000 + BLEND_IN_MS + 1000)
    expect(f.ctl.update(null)).toBe('moving')
    f.step(FADE_MS / 2)
    expect(f.face.w('happy')).toBeCloseTo(0.8 - 0.5)
    f.step(FADE_MS)
    expect(f.face.w('happy')).toBe(0)
    expect(f.ctl.state.expression).toBe('neutral')
  })

  it('crossfades to a new one; neutral fades out; a zero duration holds the default', () => {
    const f = setup([0.99, 0.99])
    f.ctl.update(null)
    f.ctl.express({ expression: 'sad', intensity: 1, durationMs: 0 })
    f.step(BLEND_IN_MS)
    expect(f.ctl.nextChangeAt()).toBe(1000 + BLEND_IN_MS + DEFAULT_HOLD_MS)
    f.ctl.express({ expression: 'surprised', intensity: 1, durationMs: 0 })
    f.step(BLEND_IN_MS)
    expect(f.face.w('surprised')).toBe(1)
    expect(f.face.w('sad')).toBeGreaterThan(0)
    f.ctl.express({ expression: 'neutral', intensity: 1, durationMs: 0 })
    f.step(FADE_MS)
    f.step(FADE_MS)
    expect(f.face.w('surprised') + f.face.w('sad')).toBe(0)
    expect(f.ctl.state.expression).toBe('neutral')
  })

  it('switches at once with reduced motion', () => {
    const f = setup([], { reduced: true })
    f.ctl.update(null)
    f.ctl.express({ expression: 'angry', intensity: 1, durationMs: 500 })
    expect(f.step(1)).toBe('rest')
    expect(f.face.w('angry')).toBe(1)
    expect(f.ctl.nextChangeAt()).toBe(1500)
    f.at(1500)
    f.ctl.update(null)
    expect(f.face.w('angry')).toBe(0)
  })

  it('writes only what the face has: a model without expressions still blinks', () => {
    const f = setup([0, 0.99, 0.9], { has: ['blink', 'aa'] })
    f.ctl.express({ expression: 'happy', intensity: 1, durationMs: 0 })
    f.at(1000 + BLINK_MIN_MS + BLINK_CLOSE_MS)
    f.ctl.update(0.5)
    expect([...f.face.weights.keys()].sort()).toEqual(['aa', 'blink'])
    expect(f.face.w('blink')).toBe(1)
  })
})
