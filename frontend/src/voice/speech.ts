// The reply's speech in this window (docs/voice.md, "In the window"): the
// chat stream's speech frames go into a SpeechQueue that fetches, decodes and
// plays each clause through the SpeechPlayer. Only streams this window started
// speak (a send, an edit, a regenerate: never a run picked up from elsewhere),
// and only while speaking replies is on with a speech server set. Stop, Esc,
// a new message, the mic starting or the VAD hearing the user stop it at once
// and keep the rest of that reply quiet.

import type { ChatFrame } from '../api'
import { Store } from '../state/store'
import { SpeechPlayer, type AudioBufferLike } from './speechPlayer'
import { SpeechQueue, type SpeechState } from './speechQueue'

/** How a reply stream was started (chatRunner's ReplyStart kinds). */
export type StreamKind = 'send' | 'edit' | 'regenerate' | 'resume'

export interface SpeechDeps {
  /** The clause's audio from POST /api/speech; null when there is no API client. */
  speak(text: string, signal: AbortSignal): Promise<ArrayBuffer>
  /** Speaking replies is on and a speech server is set (the config as this window read it). */
  enabled(): boolean
  /** Tells the user something once (a clause that could not be spoken). */
  notice(message: string): void
  /** Tells Wisp's log what this window's speech did: speech-played when a run of clauses ends, speech-failed. */
  report?(event: 'speech-played' | 'speech-failed', detail: string): void
  player?: SpeechPlayer
}

/** The most of a message spoken on its own (POST /api/speech takes 4,096 characters). */
const MAX_ASIDE = 4000

export const IDLE_SPEECH: SpeechState = { status: 'idle', index: null }

export class Speech {
  /** What plays now: the composer's data-speech and its Stop button read it. */
  readonly state = new Store<SpeechState>(IDLE_SPEECH)
  readonly player: SpeechPlayer
  private readonly deps: SpeechDeps
  private readonly queue: SpeechQueue<AudioBufferLike>
  /** The reply being streamed was stopped: its later clauses stay quiet. */
  private muted = false
  private sawToken = false
  /** Clauses played since speech was last idle (for report). */
  private played = 0
  private lastPlayed: number | null = null

  constructor(deps: SpeechDeps) {
    this.deps = deps
    this.player = deps.player ?? new SpeechPlayer()
    this.queue = new SpeechQueue<AudioBufferLike>({
      load: async (text, signal) => this.player.decode(await deps.speak(text, signal)),
      play: (audio, _index, signal) => this.player.play(audio, signal),
      notice: (message) => {
        deps.notice(message)
        deps.report?.('speech-failed', message)
      },
      changed: (s) => this.changed(s),
    })
  }

  private changed(s: SpeechState): void {
    if (s.status === 'playing' && s.index !== this.lastPlayed) {
      this.played++
      this.lastPlayed = s.index
    }
    if (s.status === 'idle') {
      if (this.played > 0) this.deps.report?.('speech-played', `${this.played} clause${this.played === 1 ? '' : 's'}`)
      this.played = 0
      this.lastPlayed = null
    }
    this.state.set(s)
  }

  /** Speech is playing or about to. */
  active(): boolean {
    return this.state.get().status !== 'idle'
  }

  /** A new turn of this window starts (a message sent, edited or regenerated): stops what plays. */
  readonly newTurn = (): void => {
    // A send is a user's gesture: the moment a browser lets the sound start.
    if (this.deps.enabled()) this.player.warm()
    this.queue.stop()
    this.muted = false
    this.sawToken = false
  }

  /** Stops speaking now (Stop, Esc, the mic, barge-in); the rest of this reply stays quiet. */
  readonly stop = (): void => {
    this.queue.stop()
    this.muted = true
  }

  /** A frame of a reply stream this window drives. */
  readonly onFrame = (frame: ChatFrame, kind: StreamKind): void => {
    if (kind === 'resume') return
    if (frame.type === 'token' && !this.sawToken && frame.callback !== true) {
      this.sawToken = true
      this.player.firstToken()
      return
    }
    if (frame.type !== 'speech' || this.muted || !this.deps.enabled()) return
    this.queue.push(frame.index, frame.text)
  }

  /**
   * Speaks what Wisp said on its own (a reminder, an autonomy message) when
   * speaking replies is on and nothing else is being said: a reply being spoken
   * is not cut off by it. The server reads the text's markdown as speech.
   */
  readonly aside = (text: string): void => {
    if (!this.deps.enabled() || this.active() || text.trim() === '') return
    this.newTurn()
    this.queue.push(0, text.slice(0, MAX_ASIDE))
  }

  /** Speaks text now (Settings → Voice's Test), after stopping what plays. */
  readonly say = (text: string): void => {
    this.newTurn()
    this.queue.push(0, text)
  }
}
