// What the avatar plays now and when it goes back to idle, without any 3D:
// the stage (three.js or its fallback) only follows `current`.
//
// Rules: idle loops by default. An emote frame starts that emote at once; a
// non-looping one returns to idle after its duration, a looping one runs
// until the next emote or a stop. A newer emote cancels the pending return of
// an older one. The "idle" emote (or stop()) returns to idle at once.

import { IDLE_EMOTE_ID, type Cancel, type Clock, type EmoteMessage } from '../api'
import { Store } from './store'

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

/** The emote playing now, a Store (store.ts): each change is a new play with the next seq. */
export class EmotePlayback extends Store<EmotePlay> {
  private readonly clock: Clock
  private idleGlb: string
  private cancelReturn: Cancel | null = null

  constructor(clock: Clock, idleGlb = DEFAULT_IDLE_GLB) {
    super({ id: IDLE_EMOTE_ID, glbPath: idleGlb, loop: true, duration: 0, seq: 0 })
    this.clock = clock
    this.idleGlb = idleGlb
  }

  private get play(): EmotePlay {
    return this.get()
  }

  /** Where the idle clip is, from the catalog; takes effect now when idle. */
  setIdleGlb(glbPath: string): void {
    if (glbPath === this.idleGlb) return
    this.idleGlb = glbPath
    if (this.play.id === IDLE_EMOTE_ID) this.show({ ...this.play, glbPath })
  }

  /** Starts an emote frame's emote (or returns to idle for "idle"). */
  start(req: EmoteRequest): void {
    if (req.emoteId === IDLE_EMOTE_ID) {
      this.idleGlb = req.glbPath
      this.stop()
      return
    }
    this.clearReturn()
    this.show({ id: req.emoteId, glbPath: req.glbPath, loop: req.loop, duration: req.duration, seq: 0 })
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
    this.show({ id: IDLE_EMOTE_ID, glbPath: this.idleGlb, loop: true, duration: 0, seq: 0 })
  }

  private show(next: EmotePlay): void {
    this.set({ ...next, seq: this.play.seq + 1 })
  }

  private clearReturn(): void {
    this.cancelReturn?.()
    this.cancelReturn = null
  }
}
