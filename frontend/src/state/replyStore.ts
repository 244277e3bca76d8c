// The open conversation's streaming replies, a Store (store.ts) of their
// own beside the chat's: frames of a reply are queued as they arrive and
// folded into its entry at most once per animation frame (in a task of its
// own just after the frame), so the store is set, and its subscribers told,
// once for everything that arrived since the last frame. Components select
// one entry (useLiveReply.ts), so a token re-renders the bubble that shows
// it and nothing else. No React here.

import type { ChatFrame, SeqFrame } from '../api'
import { afterNextFrame } from '../tasks'
import { foldLive, type LiveReply } from './liveReply'
import { Store } from './store'

/** Runs fn once, at the next frame; the returned function cancels it. */
export type FrameScheduler = (fn: () => void) => () => void

/**
 * Once per animation frame, in a task of its own posted from the frame (a
 * hidden page gets no frames; its replies queue until it is shown). Not in the
 * frame callback itself: the render it causes would run in the same task as
 * the frame's style and layout, and the two together made the longest tasks
 * of a streaming reply. After the frame, the render is one task and the next
 * frame draws it.
 */
export const afterAnimationFrames: FrameScheduler = afterNextFrame

/** The replies by bubble key. A new map (and a new entry for each reply that changed) on every update. */
export type LiveReplies = ReadonlyMap<string, LiveReply>

export class ReplyStore extends Store<LiveReplies> {
  private readonly queued = new Map<string, SeqFrame[]>()
  private queuedCount = 0
  private cancelFrame: (() => void) | null = null
  private readonly schedule: FrameScheduler

  constructor(schedule: FrameScheduler = afterAnimationFrames) {
    super(new Map())
    this.schedule = schedule
  }

  /** The live state of one reply (the store's state changes only when an update is published). */
  reply(key: string): LiveReply | undefined {
    return this.get().get(key)
  }

  /** Frames waiting for the next animation frame. */
  get pending(): number {
    return this.queuedCount
  }

  /** Starts (or restarts) the entry of a reply from base, now; frames queued for it are dropped. */
  begin(key: string, base: LiveReply): void {
    this.dropQueued(key)
    this.set(new Map(this.get()).set(key, base))
  }

  /** Queues a frame of a reply (begun first; others are dropped); it shows at the next animation frame. */
  push(key: string, seq: number | null, frame: ChatFrame): void {
    let list = this.queued.get(key)
    if (list === undefined) {
      list = []
      this.queued.set(key, list)
    }
    list.push({ seq, frame })
    this.queuedCount++
    this.cancelFrame ??= this.schedule(() => {
      this.cancelFrame = null
      this.flush()
    })
  }

  /** Folds every queued frame into its reply now, with one notification (none when nothing changed). */
  flush(): void {
    this.cancelFrame?.()
    this.cancelFrame = null
    if (this.queuedCount === 0) return
    let next: Map<string, LiveReply> | null = null
    for (const [key, frames] of this.queued) {
      const prev = this.get().get(key)
      if (prev === undefined) continue
      const folded = foldLive(prev, frames)
      if (folded === prev) continue
      next ??= new Map(this.get())
      next.set(key, folded)
    }
    this.queued.clear()
    this.queuedCount = 0
    if (next !== null) this.set(next)
  }

  /** Forgets every reply (another conversation was opened). */
  clear(): void {
    this.cancelFrame?.()
    this.cancelFrame = null
    this.queued.clear()
    this.queuedCount = 0
    if (this.get().size > 0) this.set(new Map())
  }

  private dropQueued(key: string): void {
    const list = this.queued.get(key)
    if (list === undefined) return
    this.queuedCount -= list.length
    this.queued.delete(key)
  }
}
