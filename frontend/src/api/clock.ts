// Injectable timers so reconnect logic can be tested without sleeping.

export type Cancel = () => void

export interface Clock {
  /** Runs fn once after ms; the returned function cancels it. */
  after(ms: number, fn: () => void): Cancel
}

export const realClock: Clock = {
  after(ms, fn) {
    const handle = setTimeout(fn, ms)
    return () => clearTimeout(handle)
  },
}
