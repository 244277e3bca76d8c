// Messages the UI sends while /ws is not active wait here and are flushed in
// order once the connection is active again.
//
// Rules: at most `capacity` (32) messages; when full the oldest is dropped
// with a console warning naming its type. Only the latest active-conversation
// is kept: an earlier one is removed and the new one goes to the tail, so it
// is delivered after everything queued before it (it is the newest intent).
// The same goes for terminal-resize, per run: only the latest size matters.

import type { ClientMessage } from './types'

export const SEND_QUEUE_CAPACITY = 32

export type DropReporter = (dropped: ClientMessage) => void

const warnDropped: DropReporter = (dropped) => {
  console.warn(`wisp ws: send queue full, dropped oldest "${dropped.type}" message`)
}

export class SendQueue {
  private items: ClientMessage[] = []
  private readonly capacity: number
  private readonly onDrop: DropReporter

  constructor(capacity = SEND_QUEUE_CAPACITY, onDrop: DropReporter = warnDropped) {
    if (capacity < 1) throw new Error('send queue capacity must be at least 1')
    this.capacity = capacity
    this.onDrop = onDrop
  }

  get size(): number {
    return this.items.length
  }

  /** Queues msg; returns the message dropped to make room, if any. */
  push(msg: ClientMessage): ClientMessage | undefined {
    if (msg.type === 'active-conversation') {
      this.items = this.items.filter((m) => m.type !== 'active-conversation')
    } else if (msg.type === 'terminal-resize') {
      this.items = this.items.filter((m) => m.type !== 'terminal-resize' || m.runId !== msg.runId)
    }
    this.items.push(msg)
    if (this.items.length <= this.capacity) return undefined
    const dropped = this.items.shift()
    if (dropped !== undefined) this.onDrop(dropped)
    return dropped
  }

  /** Removes and returns everything, oldest first. */
  drain(): ClientMessage[] {
    const out = this.items
    this.items = []
    return out
  }

  /** Puts messages that could not be sent back at the front, keeping the rules. */
  requeueFront(msgs: ClientMessage[]): void {
    const rest = this.drain()
    for (const m of [...msgs, ...rest]) this.push(m)
  }

  peek(): readonly ClientMessage[] {
    return this.items
  }
}
