import { describe, expect, it } from 'vitest'
import {
  BLEND_IN_MS,
  BLINK_MAX_MS,
  BLINK_MIN_MS,
  BLINK_MS,
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
      return ctl.update(level).activity
    },
    /** Updates at the time now and says what the face does. */
    act: (level: number | null = null) => ctl.update(level).activity,
    get time() {
      return time
    },
  }
}

describe('FaceController: the mouth', () => {
  it('opens with the speech, stays shut below the gate, and shuts at once when speech stops', () => {
    const f = setup()
    f.act()
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
  it('shuts the lids for BLINK_MS at the drawn random interval, in two steps, and counts it', () => {
    // randoms: first blink at 0.25 of the range, glance far away, no double blink.
    const f = setup([0.25, 0.99, 0.9, 0.5])
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true }) // the first update writes the face
    const due = 1000 + BLINK_MIN_MS + 0.25 * (BLINK_MAX_MS - BLINK_MIN_MS)
    expect(f.ctl.nextChangeAt()).toBe(due)
    f.at(due - 1)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: false })
    expect(f.ctl.state.blinks).toBe(0)
    f.at(due + 5)
    // A step: drawn once, nothing moving after it; the face wakes again when the lids open.
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
    expect(f.face.w('blink')).toBe(1)
    expect(f.ctl.state.blinks).toBe(1)
    expect(f.ctl.nextChangeAt()).toBe(due + BLINK_MS)
    f.at(due + BLINK_MS - 1)
    expect(f.ctl.update(null).changed).toBe(false)
    f.at(due + BLINK_MS)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
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
    f.act()
    f.at(due + BLINK_MS)
    f.act()
    expect(f.face.w('blink')).toBe(0)
    expect(f.ctl.nextChangeAt()).toBe(due + DOUBLE_BLINK_GAP_MS)
    f.at(due + DOUBLE_BLINK_GAP_MS + 10)
    f.act()
    expect(f.face.w('blink')).toBe(1)
    expect(f.ctl.state.blinks).toBe(2)
    f.at(due + DOUBLE_BLINK_GAP_MS + BLINK_MS)
    f.act()
    // Never three in a row.
    expect(f.ctl.nextChangeAt()).toBeGreaterThanOrEqual(due + DOUBLE_BLINK_GAP_MS + BLINK_MIN_MS)
  })

  it('skips a blink missed while nothing was drawn', () => {
    const f = setup([0, 0.99, 0.5])
    f.at(1000 + BLINK_MIN_MS + 5000)
    expect(f.act()).toBe('rest')
    expect(f.ctl.state.blinks).toBe(0)
    expect(f.face.w('blink')).toBe(0)
    expect(f.ctl.nextChangeAt()).toBeGreaterThan(f.time)
  })

  it('does not blink or glance with reduced motion', () => {
    const f = setup([0, 0], { reduced: true })
    expect(f.ctl.nextChangeAt()).toBe(Infinity)
    f.at(60_000)
    expect(f.act()).toBe('rest')
    expect(f.ctl.state.blinks).toBe(0)
    expect(f.face.w('lookLeft') + f.face.w('lookRight')).toBe(0)
  })
})

describe('FaceController: glances', () => {
  it('looks aside a little, holds, and looks back, each a step', () => {
    // The blink just before it takes two randoms; then side +, level, hold 0.5 of its range, amount 0.5.
    const f = setup([0.999, 0, 0.9, 0.9, 0.1, 0.9, 0.5, 0.5])
    f.act()
    const due = 1000 + GLANCE_MIN_MS
    f.at(due)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
    const left = f.face.w('lookLeft')
    expect(left).toBeCloseTo(0.45)
    expect(f.face.w('lookRight')).toBe(0)
    const back = due + 1000 // the hold: 0.5 of 0.5–1.5 s
    f.at(back - 1)
    f.act()
    expect(f.face.w('lookLeft')).toBe(left)
    expect(f.ctl.nextChangeAt()).toBe(back)
    f.at(back)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
    expect(f.face.w('lookLeft')).toBe(0)
  })
})

describe('FaceController: expressions', () => {
  it('blends in, holds for the cue, fades back to neutral', () => {
    const f = setup([0.99, 0.99])
    f.act()
    f.ctl.express({ expression: 'happy', intensity: 0.8, durationMs: 1000 })
    expect(f.step(BLEND_IN_MS / 2)).toBe('moving')
    expect(f.face.w('happy')).toBeCloseTo(0.5)
    expect(f.ctl.state.expression).toBe('happy')
    f.step(BLEND_IN_MS)
    expect(f.face.w('happy')).toBeCloseTo(0.8)
    expect(f.step(10)).toBe('rest')
    expect(f.ctl.nextChangeAt()).toBe(1000 + BLEND_IN_MS + 1000)
    f.at(1000 + BLEND_IN_MS + 1000)
    expect(f.act()).toBe('moving')
    f.step(FADE_MS / 2)
    expect(f.face.w('happy')).toBeCloseTo(0.8 - 0.5)
    f.step(FADE_MS)
    expect(f.face.w('happy')).toBe(0)
    expect(f.ctl.state.expression).toBe('neutral')
  })

  it('crossfades to a new one; neutral fades out; a zero duration holds the default', () => {
    const f = setup([0.99, 0.99])
    f.act()
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
    f.act()
    f.ctl.express({ expression: 'angry', intensity: 1, durationMs: 500 })
    f.at(1001)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
    expect(f.face.w('angry')).toBe(1)
    expect(f.ctl.nextChangeAt()).toBe(1500)
    f.at(1500)
    expect(f.ctl.update(null)).toEqual({ activity: 'rest', changed: true })
    expect(f.face.w('angry')).toBe(0)
  })

  it('writes only what the face has: a model without expressions still blinks', () => {
    const f = setup([0, 0.99, 0.9], { has: ['blink', 'aa'] })
    f.ctl.express({ expression: 'happy', intensity: 1, durationMs: 0 })
    f.at(1000 + BLINK_MIN_MS + 10)
    f.ctl.update(0.5)
    expect([...f.face.weights.keys()].sort()).toEqual(['aa', 'blink'])
    expect(f.face.w('blink')).toBe(1)
  })
})
