// Tasks of the page's event loop, for work that must not share a task with
// what comes before it (a frame's style and layout, the next chunk of a
// stream). No React, no state: api/ and state/ both use it.

let channel: MessageChannel | null = null
const queue: (() => void)[] = []

/**
 * Runs fn in a task of its own, after what is already due (input, a frame).
 * One channel for the page's life, held here: a MessageChannel nothing refers
 * to may be collected before its message arrives, and the task never runs.
 */
export function postTask(fn: () => void): void {
  if (channel === null) {
    channel = new MessageChannel()
    channel.port1.onmessage = () => queue.shift()?.()
  }
  queue.push(fn)
  channel.port2.postMessage(null)
}

/** Lets the event loop run a task (input, a frame) before going on. */
export function yieldToEventLoop(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler
  if (typeof scheduler?.yield === 'function') return scheduler.yield()
  return new Promise((resolve) => postTask(resolve))
}

/**
 * Runs fn in a task of its own after the next animation frame (so after that
 * frame's style and layout); the returned function cancels it. A hidden page
 * gets no frames: fn waits until it is shown.
 */
export function afterNextFrame(fn: () => void): () => void {
  let cancelled = false
  const id = requestAnimationFrame(() =>
    postTask(() => {
      if (!cancelled) fn()
    }),
  )
  return () => {
    cancelled = true
    cancelAnimationFrame(id)
  }
}
