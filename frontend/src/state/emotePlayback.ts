// What the avatar plays now and when it goes back to idle, without any 3D:
// the stage (three.js or its fallback) only follows `current`.
//
// Rules: idle loops by default. An emote frame starts that emote at once; a
// non-looping one returns to idle after its duration, a looping one runs
// until the next emote or a stop. A newer emote cancels the pending return of
// an older one. The "idle" emote (or stop()) returns to idle at once.

import { IDLE_EMOTE_ID, Listeners, type Cancel, type Clock, type EmoteMessage, type Unsubscribe } from '../api'

export const DEFAULT_IDLE_GLB = '/emotes/idle.glb'

export interface EmotePlay {
  /** The emote playing now; IDLE_EMOTE_ID when idle. */
  id: string
  glbPath: string
  loop: boolean
  /** Seconds (0 for idle). */
  duration: number
  /** Grows with every change, so the same emote played twice restarts. */
  seq: number
}

export type EmoteRequest = Pick<EmoteMessage, 'emoteId' | 'glbPath' | 'duration' | 'loop'>

export class EmotePlayback {
  private readonly clock: Clock
  private readonly listeners = new Listeners<EmotePlay>()
  private idleGlb: string
  private play: EmotePlay
  private cancelReturn: Cancel | null = null

  constructor(clock: Clock, idleGlb = DEFAULT_IDLE_GLB) {
    this.clock = clock
    this.idleGlb = idleGlb
    this.play = { id: IDLE_EMOTE_ID, glbPath: idleGlb, loop: true, duration: 0, seq: 0 }
  }

  get current(): EmotePlay {
    return this.play
  }

  /** Subscribes to changes (not called for the current value). */
  subscribe(fn: (play: EmotePlay) => void): Unsubscribe {
    return this.listeners.add(fn)
  }

  /** Where the idle clip is, from the catalog; takes effect now when idle. */
  setIdleGlb(glbPath: string): void {
    if (glbPath === this.idleGlb) return
    this.idleGlb = glbPath
    if (this.play.id === IDLE_EMOTE_ID) this.set({ ...this.play, glbPath })
  }

  /** Starts an emote frame's emote (or returns to idle for "idle"). */
  start(req: EmoteRequest): void {
    if (req.emoteId === IDLE_EMOTE_ID) {
      this.idleGlb = req.glbPath
      this.stop()
      return
    }
    this.clearReturn()
    this.set({ id: req.emoteId, glbPath: req.glbPath, loop: req.loop, duration: req.duration, seq: 0 })
    if (!req.loop) {
      const seq = this.play.seq
      this.cancelReturn = this.clock.after(req.duration * 1000, () => {
        this.cancelReturn = null
        if (this.play.seq === seq) this.stop()
      })
    }
  }

  /** Back to idle now (cancelling a pending return); does nothing when already idle. */
  stop(): void {
    this.clearReturn()
    if (this.play.id === IDLE_EMOTE_ID && this.play.glbPath === this.idleGlb) return
    this.set({ id: IDLE_EMOTE_ID, glbPath: this.idleGlb, loop: true, duration: 0, seq: 0 })
  }

  private set(next: EmotePlay): void {
    this.play = { ...next, seq: this.play.seq + 1 }
    this.listeners.emit(this.play)
  }

  private clearReturn(): void {
    this.cancelReturn?.()
    this.cancelReturn = null
  }
}
