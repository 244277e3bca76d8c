// A requestAnimationFrame loop capped to a frame rate, that stops asking for
// frames while anything pauses it (hidden document, stage off-screen or
// collapsed, reduced motion, nothing loaded yet). No three.js here.

export interface FrameScheduler {
  request(cb: (now: number) => void): number
  cancel(handle: number): void
}

export const browserScheduler: FrameScheduler = {
  request: (cb) => requestAnimationFrame(cb),
  cancel: (handle) => cancelAnimationFrame(handle),
}

/** The longest step handed to the animation, so a stall does not jump the pose. */
export const MAX_STEP_SECONDS = 0.1

export class FrameLoop {
  private readonly tick: (dtSeconds: number) => void
  private readonly scheduler: FrameScheduler
  private readonly interval: number
  private readonly pauses = new Set<string>()
  private handle: number | null = null
  private last: number | null = null

  /** tick gets the seconds since the previous tick (0 for the first after a pause). */
  constructor(tick: (dtSeconds: number) => void, scheduler: FrameScheduler = browserScheduler, fps = 30) {
    this.tick = tick
    this.scheduler = scheduler
    this.interval = 1000 / fps
  }

  get running(): boolean {
    return this.handle !== null
  }

  /** Pauses for a reason until the same reason is cleared; runs while no reason is set. */
  setPaused(reason: string, paused: boolean): void {
    if (paused) this.pauses.add(reason)
    else this.pauses.delete(reason)
    if (this.pauses.size === 0) this.start()
    else this.stop()
  }

  isPaused(reason: string): boolean {
    return this.pauses.has(reason)
  }

  dispose(): void {
    this.pauses.add('disposed')
    this.stop()
  }

  private start(): void {
    if (this.handle !== null) return
    this.last = null
    this.handle = this.scheduler.request(this.frame)
  }

  private stop(): void {
    if (this.handle === null) return
    this.scheduler.cancel(this.handle)
    this.handle = null
  }

  private readonly frame = (now: number): void => {
    this.handle = this.scheduler.request(this.frame)
    if (this.last === null) {
      this.last = now
      this.tick(0)
      return
    }
    const elapsed = now - this.last
    // 1 ms of slack so a 60 Hz display reliably gets every other frame.
    if (elapsed < this.interval - 1) return
    this.last = now
    this.tick(Math.min(elapsed / 1000, MAX_STEP_SECONDS))
  }
}
