// The avatar's frame loop: draws on demand, as renderPolicy.ts decides, with
// requestAnimationFrame while an emote plays or speech moves the mouth, a
// timer at a capped rate while idle or the face changes (slower while the
// stage holds the idle pose still), and asks for nothing at all while anything
// pauses it (hidden document, stage off screen or collapsed, reduced motion
// unless speech plays, nothing loaded yet). No three.js here.

import type { FaceActivity } from './face'
import { IDLE_FPS, nextFrame, rateOf, type NextFrame, type RenderRate } from './renderPolicy'

/** Display frames and timers: the browser's, or a test's fake clock. */
export interface FrameScheduler {
  /** Milliseconds on the clock animation frames are stamped with. */
  now(): number
  request(cb: (now: number) => void): number
  cancel(handle: number): void
  after(ms: number, cb: () => void): number
  clear(handle: number): void
}

export const browserScheduler: FrameScheduler = {
  now: () => performance.now(),
  request: (cb) => requestAnimationFrame(cb),
  cancel: (handle) => cancelAnimationFrame(handle),
  after: (ms, cb) => window.setTimeout(cb, ms),
  clear: (handle) => window.clearTimeout(handle),
}

/**
 * The longest step handed to the animation, so a stall does not jump the
 * pose; above the slowest regular step (a held idle pose's, 1/HOLD_CHECK_FPS).
 */
export const MAX_STEP_SECONDS = 0.25

/** One frame the loop hands to its tick. */
export interface Frame {
  /** Seconds since the previous frame (0 for the first after a pause or a wake). */
  dt: number
  /**
   * An idle frame, at the capped rate, with the face at rest: the tick may
   * skip drawing when the pose has not visibly changed. Every other frame
   * must be drawn.
   */
  idle: boolean
}

/** What a tick did: false when an idle frame drew nothing (the pose is held still). */
export type Drawn = boolean | void

export interface FrameLoopOptions {
  scheduler?: FrameScheduler
  idleFps?: number
  /** Told whenever the rate changes (for the canvas's data-render). */
  onRate?(rate: RenderRate): void
}

export class FrameLoop {
  private readonly tick: (frame: Frame) => Drawn
  private readonly scheduler: FrameScheduler
  private readonly idleFps: number
  private readonly onRate: (rate: RenderRate) => void
  private readonly pauses = new Set<string>()
  private playing = false
  private typing = false
  private face: FaceActivity = 'rest'
  private emoteEnded = Number.NEGATIVE_INFINITY
  private last: number | null = null
  private holding = false
  private display: number | null = null
  private timer: number | null = null
  private inFrame = false
  private currentRate: RenderRate = 'stopped'

  constructor(tick: (frame: Frame) => Drawn, options: FrameLoopOptions = {}) {
    this.tick = tick
    this.scheduler = options.scheduler ?? browserScheduler
    this.idleFps = options.idleFps ?? IDLE_FPS
    this.onRate = options.onRate ?? (() => undefined)
  }

  /** Whether a frame is pending (at display rate or on the idle timer). */
  get running(): boolean {
    return this.display !== null || this.timer !== null
  }

  get rate(): RenderRate {
    return this.currentRate
  }

  /**
   * Pauses for a reason until the same reason is cleared. 'hidden' is the
   * page's visibility; 'still' a still pose (reduced motion: only speech
   * draws); any other reason (off screen, no size, not loaded) means the
   * stage is not on screen with something to animate.
   */
  setPaused(reason: string, paused: boolean): void {
    if (paused === this.pauses.has(reason)) return
    if (paused) this.pauses.add(reason)
    else this.pauses.delete(reason)
    if (!paused) this.last = null // drawing restarts: one frame at once
    this.schedule()
  }

  isPaused(reason: string): boolean {
    return this.pauses.has(reason)
  }

  /** An emote (not idle) plays: frames at display rate until it ends and settles. */
  setPlaying(playing: boolean): void {
    if (playing === this.playing) return
    this.playing = playing
    if (!playing) this.emoteEnded = this.scheduler.now()
    this.schedule()
  }

  /** The user types (or stopped): the idle animation holds meanwhile; an emote still plays. */
  setTyping(typing: boolean): void {
    if (typing === this.typing) return
    this.typing = typing
    this.schedule()
  }

  /** What the face does (face.ts): speech draws at display rate, a blending expression or a blink's step at the idle rate. */
  setFace(face: FaceActivity): void {
    if (face === this.face) return
    this.face = face
    this.schedule()
  }

  /** Draws one frame at once (a resize, a new clip), if anything is to be drawn. */
  wake(): void {
    this.last = null
    this.schedule()
  }

  dispose(): void {
    this.pauses.add('disposed')
    this.schedule()
  }

  private decide(now: number): NextFrame {
    return nextFrame(
      {
        playing: this.playing,
        sinceEmoteEnded: now - this.emoteEnded,
        visible: !this.pauses.has('hidden'),
        onScreen: [...this.pauses].every((r) => r === 'hidden' || r === 'still'),
        sinceLastFrame: this.last === null ? null : now - this.last,
        holding: this.holding,
        typing: this.typing,
        still: this.pauses.has('still'),
        face: this.face,
      },
      this.idleFps,
    )
  }

  /** Drops what is pending and asks for the next frame the policy wants. */
  private schedule(): void {
    if (this.inFrame) return // the frame reschedules when its tick returns
    this.unschedule()
    const now = this.scheduler.now()
    const next = this.decide(now)
    // A frame drawn at once is followed by a decision that names the rate.
    if (next.kind !== 'now') this.setRate(rateOf(next))
    switch (next.kind) {
      case 'none':
        return
      case 'now':
        this.frame(now, false)
        return
      case 'display':
        this.display = this.scheduler.request(this.onDisplay)
        return
      case 'after':
        this.timer = this.scheduler.after(next.ms, this.onTimer)
    }
  }

  private unschedule(): void {
    if (this.display !== null) this.scheduler.cancel(this.display)
    if (this.timer !== null) this.scheduler.clear(this.timer)
    this.display = this.timer = null
  }

  private readonly onDisplay = (now: number): void => {
    this.display = null
    this.frame(now, false)
  }

  private readonly onTimer = (): void => {
    this.timer = null
    this.frame(this.scheduler.now(), this.face === 'rest')
  }

  private frame(now: number, idle: boolean): void {
    const dt = this.last === null ? 0 : Math.min(Math.max(now - this.last, 0) / 1000, MAX_STEP_SECONDS)
    this.last = now
    this.inFrame = true
    try {
      const drawn = this.tick({ dt, idle })
      this.holding = idle && drawn === false
    } finally {
      this.inFrame = false
      this.schedule() // a tick that throws does not stop the loop
    }
  }

  private setRate(rate: RenderRate): void {
    if (rate === this.currentRate) return
    this.currentRate = rate
    this.onRate(rate)
  }
}
