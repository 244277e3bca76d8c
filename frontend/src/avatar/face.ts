// The avatar's face, for both kinds of character: the mouth follows the
// speech playing now, the eyes blink and glance, and expressions blend in,
// hold and fade back to neutral. It writes weights by VRM 1.0 preset name to
// a FaceTarget (the built-in avatar's morph targets or a VRM's expression
// manager, faceTargets.ts) and says whether the face is moving and whether
// the last update changed it, so the stage draws only then
// (renderPolicy.ts). No three.js, no timers, no DOM: the stage calls update()
// on its frames and asks nextChangeAt() when the face rests.
//
// Blinks and glances are steps, not motions: a blink is the lids shut for
// BLINK_MS, then open; a glance jumps aside and back, as eyes do (saccades).
// Each costs two drawn frames, where a smooth blink at the idle rate would
// take four and a smooth glance eight.

import type { ExpressionCue } from './faceBus'

/** The VRM 1.0 expression presets the face drives (the built-in avatar's morph targets carry the same names). */
export const FACE_PRESETS = [
  'aa',
  'ih',
  'ou',
  'ee',
  'oh',
  'blink',
  'blinkLeft',
  'blinkRight',
  'happy',
  'angry',
  'sad',
  'relaxed',
  'surprised',
  'lookUp',
  'lookDown',
  'lookLeft',
  'lookRight',
] as const
export type FacePreset = (typeof FACE_PRESETS)[number]

/** The expressions a cue can show (neutral clears them). */
export const EMOTIONS = ['happy', 'angry', 'sad', 'relaxed', 'surprised'] as const
export type Emotion = (typeof EMOTIONS)[number]

/** Where the weights go; a preset the model does not have is skipped by the target. */
export interface FaceTarget {
  set(name: FacePreset, weight: number): void
}

/**
 * What the face does now: `speaking` (the mouth follows audio: every display
 * frame), `moving` (an expression blending: frames until it ends) or `rest`
 * (nothing changes until nextChangeAt()).
 */
export type FaceActivity = 'rest' | 'moving' | 'speaking'

/** One update: what the face does now, and whether this update changed a weight (the frame must be drawn). */
export interface FaceStep {
  activity: FaceActivity
  changed: boolean
}

/** Below this level (0–1, the player's smoothed RMS) the mouth is shut: breath and hiss do not open it. */
export const MOUTH_GATE = 0.02
/** The level that opens the mouth fully. */
export const MOUTH_FULL = 0.3
/** Smoothing time constants of the mouth, in ms: it opens faster than it closes. */
const MOUTH_OPEN_MS = 35
const MOUTH_CLOSE_MS = 70

/** Blinks come at random between these intervals (ms); some are doubled. */
export const BLINK_MIN_MS = 2000
export const BLINK_MAX_MS = 6000
export const DOUBLE_BLINK_CHANCE = 0.2
/** How long the lids stay shut in a blink. */
export const BLINK_MS = 150
/** The second blink of a double one starts this long after the first. */
export const DOUBLE_BLINK_GAP_MS = 260

/** Glances: a small look aside now and then, held a moment. */
export const GLANCE_MIN_MS = 6000
export const GLANCE_MAX_MS = 14000
const GLANCE_HOLD_MIN_MS = 500
const GLANCE_HOLD_MAX_MS = 1500

/** Expressions blend in over BLEND_IN_MS, hold (the cue's duration, or DEFAULT_HOLD_MS), and fade over FADE_MS. */
export const BLEND_IN_MS = 250
export const FADE_MS = 600
export const DEFAULT_HOLD_MS = 4000

export interface FaceOptions {
  /** Milliseconds, on the clock the stage's frames use. */
  now(): number
  /** 0 ≤ x < 1; Math.random by default (tests give a fixed sequence). */
  random?: () => number
  /** prefers-reduced-motion: no blinks or glances, expressions switch at once. */
  reduced?: boolean
}

interface Glance {
  start: number
  hold: number
  yaw: number
  pitch: number
}

/** What the face shows, for the stage's data attributes. */
export interface FaceState {
  /** The mouth's `aa` weight. */
  mouth: number
  /** The strongest expression showing, or neutral. */
  expression: Emotion | 'neutral'
  /** Blinks so far. */
  blinks: number
}

export class FaceController {
  private readonly target: FaceTarget
  private readonly now: () => number
  private readonly random: () => number
  private reduced: boolean
  private last: number | null = null
  private mouth = 0
  private blinks = 0
  private nextBlink = Number.POSITIVE_INFINITY
  private blinkStart: number | null = null
  private doubleNext = false
  private nextGlance = Number.POSITIVE_INFINITY
  private glance: Glance | null = null
  private readonly weights = new Map<Emotion, number>(EMOTIONS.map((e) => [e, 0]))
  private active: { name: Emotion; intensity: number; until: number } | null = null
  /** The weights last written, so an update knows whether it changed the face. */
  private readonly written = new Map<FacePreset, number>()
  /** When the expressions' targets last changed (a cue, a hold's end): blending starts there. */
  private changedAt = Number.NEGATIVE_INFINITY

  constructor(target: FaceTarget, options: FaceOptions) {
    this.target = target
    this.now = options.now
    this.random = options.random ?? Math.random
    this.reduced = options.reduced ?? false
    this.schedule(this.now())
  }

  get state(): FaceState {
    let expression: FaceState['expression'] = 'neutral'
    let max = 0
    for (const [name, w] of this.weights) {
      if (w > max) {
        max = w
        expression = name
      }
    }
    return { mouth: this.mouth, expression, blinks: this.blinks }
  }

  /** Reduced motion on or off: blinks and glances stop (or start again), expressions switch at once. */
  setReduced(reduced: boolean): void {
    if (reduced === this.reduced) return
    this.reduced = reduced
    this.blinkStart = null
    this.glance = null
    this.schedule(this.now())
  }

  /** Shows a cue: blends its expression in (others fade), or back to neutral. */
  express(cue: ExpressionCue): void {
    this.changedAt = this.now()
    if (cue.expression === 'neutral') {
      this.active = null
      return
    }
    const intensity = cue.intensity > 0 ? Math.min(cue.intensity, 1) : 1
    const hold = cue.durationMs > 0 ? cue.durationMs : DEFAULT_HOLD_MS
    this.active = { name: cue.expression, intensity, until: this.now() + (this.reduced ? 0 : BLEND_IN_MS) + hold }
  }

  /**
   * Advances the face to now and writes its weights: `level` is the speech's
   * loudness (0–1), null when nothing is spoken.
   */
  update(level: number | null): FaceStep {
    const now = this.now()
    const last = this.last ?? now
    const dt = Math.max(now - last, 0)
    this.last = now

    // The mouth: gated, then smoothed; shut at once when no speech plays.
    let mouth = 0
    if (level !== null) {
      const want = level < MOUTH_GATE ? 0 : Math.min(1, (level - MOUTH_GATE) / (MOUTH_FULL - MOUTH_GATE))
      const tau = want > this.mouth ? MOUTH_OPEN_MS : MOUTH_CLOSE_MS
      mouth = this.mouth + (want - this.mouth) * (1 - Math.exp(-dt / tau))
      if (want === 0 && mouth < 0.02) mouth = 0
    }
    this.mouth = mouth

    const blink = this.reduced ? 0 : this.blinkWeight(now)
    const look = this.reduced ? null : this.lookAt(now)
    const blending = this.blendExpressions(now, last)

    let changed = false
    const set = (name: FacePreset, weight: number) => {
      if (this.written.get(name) === weight) return
      this.written.set(name, weight)
      this.target.set(name, weight)
      changed = true
    }
    set('aa', mouth)
    set('oh', mouth * 0.25)
    set('blink', blink)
    for (const [name, w] of this.weights) set(name, w)
    const yaw = look?.yaw ?? 0
    const pitch = look?.pitch ?? 0
    set('lookLeft', Math.max(0, yaw))
    set('lookRight', Math.max(0, -yaw))
    set('lookUp', Math.max(0, pitch))
    set('lookDown', Math.max(0, -pitch))

    const activity: FaceActivity = level !== null ? 'speaking' : blending ? 'moving' : 'rest'
    return { activity, changed }
  }

  /** When the face next starts to move by itself (a blink, a glance, an expression's fade); Infinity for never. */
  nextChangeAt(): number {
    let at = this.active?.until ?? Number.POSITIVE_INFINITY
    if (!this.reduced) {
      const blinkEnd = this.blinkStart === null ? Number.POSITIVE_INFINITY : this.blinkStart + BLINK_MS
      const glance = this.glance === null ? this.nextGlance : this.glance.start + this.glance.hold
      at = Math.min(at, this.nextBlink, blinkEnd, glance)
    }
    return at
  }

  private schedule(now: number): void {
    if (this.reduced) {
      this.nextBlink = this.nextGlance = Number.POSITIVE_INFINITY
      return
    }
    this.nextBlink = now + BLINK_MIN_MS + this.random() * (BLINK_MAX_MS - BLINK_MIN_MS)
    this.nextGlance = now + GLANCE_MIN_MS + this.random() * (GLANCE_MAX_MS - GLANCE_MIN_MS)
  }

  /** The lids now (1 shut, 0 open); starts the blink that is due, and schedules the next. */
  private blinkWeight(now: number): number {
    if (this.blinkStart !== null && now - this.blinkStart >= BLINK_MS) this.blinkStart = null
    if (this.blinkStart === null && now >= this.nextBlink) {
      if (now - this.nextBlink >= BLINK_MS) {
        // Missed while nothing was drawn (hidden, off screen, typing): no blink afterwards, the next one later.
        this.nextBlink = now + BLINK_MIN_MS + this.random() * (BLINK_MAX_MS - BLINK_MIN_MS)
        this.doubleNext = false
        return 0
      }
      this.blinkStart = this.nextBlink
      this.blinks++
      const second = this.doubleNext
      this.doubleNext = !second && this.random() < DOUBLE_BLINK_CHANCE
      this.nextBlink = this.doubleNext
        ? this.blinkStart + DOUBLE_BLINK_GAP_MS
        : this.blinkStart + BLINK_MIN_MS + this.random() * (BLINK_MAX_MS - BLINK_MIN_MS)
    }
    return this.blinkStart === null ? 0 : 1
  }

  /** The glance now (yaw: + left, pitch: + up, each at most 0.6); null while the eyes look ahead. */
  private lookAt(now: number): { yaw: number; pitch: number } | null {
    if (this.glance === null && now >= this.nextGlance) {
      const side = this.random() < 0.5 ? 1 : -1
      const vertical = this.random()
      this.glance = {
        start: now,
        hold: GLANCE_HOLD_MIN_MS + this.random() * (GLANCE_HOLD_MAX_MS - GLANCE_HOLD_MIN_MS),
        yaw: side * (0.3 + 0.3 * this.random()),
        pitch: vertical < 0.25 ? 0.3 : vertical < 0.5 ? -0.25 : 0,
      }
    }
    const g = this.glance
    if (g === null) return null
    if (now - g.start >= g.hold) {
      this.glance = null
      this.nextGlance = now + GLANCE_MIN_MS + this.random() * (GLANCE_MAX_MS - GLANCE_MIN_MS)
      return null
    }
    return { yaw: g.yaw, pitch: g.pitch }
  }

  /** Moves each expression's weight toward its target; true while any is still moving. */
  private blendExpressions(now: number, last: number): boolean {
    if (this.active !== null && now >= this.active.until) {
      this.changedAt = this.active.until
      this.active = null
    }
    const dt = now - Math.min(now, Math.max(last, this.changedAt))
    let moving = false
    for (const [name, w] of this.weights) {
      const want = this.active?.name === name ? this.active.intensity : 0
      if (w === want) continue
      let next: number
      if (this.reduced) next = want
      else if (want > w) next = Math.min(want, w + dt / BLEND_IN_MS)
      else next = Math.max(want, w - dt / FADE_MS)
      this.weights.set(name, next)
      if (next !== want) moving = true
    }
    return moving
  }
}
