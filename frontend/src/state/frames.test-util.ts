// Animation frames for tests: callbacks wait until the test runs the next frame.

import type { FrameScheduler } from './replyStore'

export class ManualFrames {
  private waiting: { fn: () => void; live: boolean }[] = []
  /** How many frames were asked for, in all. */
  requested = 0

  readonly schedule: FrameScheduler = (fn) => {
    const entry = { fn, live: true }
    this.waiting.push(entry)
    this.requested++
    return () => {
      entry.live = false
    }
  }

  /** Callbacks waiting for the next frame. */
  get pending(): number {
    return this.waiting.filter((e) => e.live).length
  }

  /** Runs the callbacks waiting for this frame (ones they ask for wait for the next). */
  run(): void {
    const now = this.waiting.filter((e) => e.live)
    this.waiting = []
    for (const e of now) e.fn()
  }
}
