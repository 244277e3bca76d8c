// The clauses of a reply spoken in order (docs/voice.md, "In the window"):
// each is fetched (POST /api/speech), decoded and played by the injected
// functions, in order of its index. Lazy: a clause waits as text until it is
// among the next `prefetch` after the one playing, so a reply of thousands of
// clauses costs thousands of strings, not requests. A duplicate or an index
// already passed is ignored; a clause whose audio cannot be fetched or decoded
// is skipped (one notice per queue run, never a stuck queue). stop() aborts
// the fetches, stops the sound and forgets every clause at once.

export type SpeechStatus = 'idle' | 'loading' | 'playing'

export interface SpeechState {
  status: SpeechStatus
  /** The clause playing (or being waited for), null when idle. */
  index: number | null
}

export interface SpeechQueueDeps<A> {
  /** The clause's audio, decoded; rejects (or aborts) to skip it. */
  load(text: string, signal: AbortSignal): Promise<A>
  /** Plays audio; resolves when it has ended or signal aborted (after stopping it). */
  play(audio: A, index: number, signal: AbortSignal): Promise<void>
  /** Says once why a clause was skipped (the queue goes on). */
  notice(message: string): void
  /** Hears every change of state. */
  changed?(state: SpeechState): void
  /** Clauses fetched ahead of the one playing (at most 2). */
  prefetch?: number
}

interface Entry<A> {
  index: number
  text: string
  ctrl: AbortController | null
  audio: Promise<A> | null
}

export const MAX_PREFETCH = 2

export class SpeechQueue<A> {
  private readonly deps: SpeechQueueDeps<A>
  private readonly ahead: number
  /** Waiting clauses, sorted by index. */
  private pending: Entry<A>[] = []
  /** The highest index taken to play; lower ones that arrive late are dropped. */
  private played = -1
  private seen = new Set<number>()
  private playing: AbortController | null = null
  private running = false
  private noticed = false
  private generation = 0
  private state: SpeechState = { status: 'idle', index: null }

  constructor(deps: SpeechQueueDeps<A>) {
    this.deps = deps
    this.ahead = Math.max(0, Math.min(MAX_PREFETCH, deps.prefetch ?? MAX_PREFETCH))
  }

  get current(): SpeechState {
    return this.state
  }

  /** How many clauses wait (for tests and the UI). */
  get waiting(): number {
    return this.pending.length
  }

  /** How many clauses have a fetch started and not yet played. */
  get fetching(): number {
    return this.pending.filter((e) => e.audio !== null).length
  }

  /** Queues a clause; empty text, a duplicate and an index already passed are ignored. */
  push(index: number, text: string): void {
    if (!Number.isSafeInteger(index) || index < 0 || text.trim() === '') return
    if (index <= this.played || this.seen.has(index)) return
    this.seen.add(index)
    const entry: Entry<A> = { index, text, ctrl: null, audio: null }
    let at = this.pending.length
    while (at > 0 && (this.pending[at - 1]?.index ?? -1) > index) at--
    this.pending.splice(at, 0, entry)
    this.fill()
    if (!this.running) void this.run(this.generation)
  }

  /** Stops at once: aborts the fetches, stops the sound, forgets every clause and the indexes seen. */
  stop(): void {
    this.generation++
    for (const e of this.pending) e.ctrl?.abort()
    this.pending = []
    this.playing?.abort()
    this.playing = null
    this.played = -1
    this.seen = new Set()
    this.running = false
    this.noticed = false
    this.setState({ status: 'idle', index: null })
  }

  /** Starts the fetches of the next clauses, up to the prefetch window (the head counts when nothing plays). */
  private fill(): void {
    const window = this.ahead + (this.playing === null ? 1 : 0)
    for (let i = 0; i < Math.min(window, this.pending.length); i++) {
      const e = this.pending[i]
      if (e === undefined || e.audio !== null) continue
      e.ctrl = new AbortController()
      e.audio = this.deps.load(e.text, e.ctrl.signal)
      // Handled when its turn comes; never an unhandled rejection meanwhile.
      e.audio.catch(() => undefined)
    }
  }

  private async run(gen: number): Promise<void> {
    this.running = true
    try {
      for (;;) {
        const e = this.pending[0]
        if (e === undefined || gen !== this.generation) break
        if (e.audio === null) this.fill()
        this.setState({ status: 'loading', index: e.index })
        let audio: A
        try {
          audio = await (e.audio as Promise<A>)
        } catch (err) {
          if (gen !== this.generation) return
          if (this.pending[0] !== e) continue
          this.pending.shift()
          this.played = Math.max(this.played, e.index)
          this.skip(e, err)
          continue
        }
        if (gen !== this.generation) return
        // A lower index came meanwhile: it goes first (this one's audio stays ready).
        if (this.pending[0] !== e) continue
        this.pending.shift()
        this.played = Math.max(this.played, e.index)
        const ctrl = new AbortController()
        this.playing = ctrl
        this.fill()
        this.setState({ status: 'playing', index: e.index })
        try {
          await this.deps.play(audio, e.index, ctrl.signal)
        } catch (err) {
          if (gen !== this.generation) return
          this.skip(e, err)
        }
        if (gen !== this.generation) return
        this.playing = null
      }
    } finally {
      if (gen === this.generation) {
        this.running = false
        this.setState({ status: 'idle', index: null })
      }
    }
  }

  private skip(e: Entry<A>, err: unknown): void {
    console.warn('wisp speech: skipped a clause', e.index, err)
    if (this.noticed) return
    this.noticed = true
    const why = err instanceof Error ? err.message : String(err)
    this.deps.notice(`Could not speak part of the reply: ${why}`)
  }

  private setState(next: SpeechState): void {
    if (next.status === this.state.status && next.index === this.state.index) return
    this.state = next
    this.deps.changed?.(next)
  }
}
