// Listening (docs/voice.md, "In the window"): push-to-talk (the composer's mic
// button, or holding the shortcut) records one take and transcribes it; hands-
// free keeps the mic on and transcribes each utterance the VAD cuts. Starting
// the mic, and the VAD hearing the user, stop Wisp's speech. The mic is on only
// between start and stop: the state says so and the composer shows it.

import { Listeners } from '../api'
import { Store } from '../state/store'
import type { MicBackend, MicEvents } from './micCapture'

export interface MicState {
  /** The mic is on. */
  recording: boolean
  /** On in hands-free mode (off: push-to-talk). */
  handsFree: boolean
  /** The loudness now, 0–1 (0 when off). */
  level: number
  /** Takes being transcribed. */
  transcribing: number
  /** Why the mic or the last transcription failed (null: fine). */
  error: string | null
}

export interface MicDeps {
  /** The browser's or the desktop's capture (chosen when the mic starts). */
  backend(): MicBackend
  /** The text said in a WAV (POST /api/transcriptions). */
  transcribe(wav: Blob): Promise<string>
  /** Wisp stops speaking (the user is about to talk). */
  stopSpeech(): void
}

export const MIC_OFF: MicState = { recording: false, handsFree: false, level: 0, transcribing: 0, error: null }

export class Mic {
  readonly state = new Store<MicState>(MIC_OFF)
  /** What the user said, for the composer. */
  readonly transcripts = new Listeners<string>()
  private backend: MicBackend | null = null
  /** A start on its way (a stop waits for it). */
  private starting: Promise<void> | null = null

  constructor(private readonly deps: MicDeps) {}

  /** Starts recording; hands-free keeps listening until stop. */
  readonly start = (handsFree = false): Promise<void> => {
    if (this.backend !== null || this.starting !== null) return this.starting ?? Promise.resolve()
    this.deps.stopSpeech()
    const backend = this.deps.backend()
    this.backend = backend
    this.state.set({ ...this.state.get(), recording: true, handsFree, level: 0, error: null })
    const events: MicEvents = {
      level: (level) => {
        if (this.backend === backend) this.state.patch({ level })
      },
      speechStart: () => this.deps.stopSpeech(),
      problem: (message) => {
        if (this.backend === backend) this.state.patch({ error: message })
      },
      utterance: (audio) => void this.deliver(audio),
      ended: (error) => {
        if (this.backend !== backend) return
        this.backend = null
        this.state.patch({ recording: false, handsFree: false, level: 0, error })
      },
    }
    this.starting = backend.start(handsFree, events).then(
      () => {
        this.starting = null
      },
      (err: unknown) => {
        this.starting = null
        if (this.backend === backend) this.backend = null
        this.state.patch({ recording: false, handsFree: false, level: 0, error: err instanceof Error ? err.message : String(err) })
      },
    )
    return this.starting
  }

  /** Stops recording: a push-to-talk take is transcribed and handed on. */
  readonly stop = async (): Promise<void> => {
    if (this.starting !== null) await this.starting
    const backend = this.backend
    if (backend === null) return
    this.backend = null
    this.state.patch({ recording: false, handsFree: false, level: 0 })
    let take: Blob | string | null
    try {
      take = await backend.stop()
    } catch (err) {
      this.state.patch({ error: err instanceof Error ? err.message : String(err) })
      return
    }
    if (take !== null) await this.deliver(take)
  }

  /** The mic button: starts push-to-talk, or stops what records. */
  readonly toggle = (): void => {
    if (this.state.get().recording) void this.stop()
    else void this.start(false)
  }

  /** The hands-free switch. */
  readonly setHandsFree = (on: boolean): void => {
    const s = this.state.get()
    if (on === (s.recording && s.handsFree)) return
    void (async () => {
      if (s.recording) await this.stop()
      if (on) await this.start(true)
    })()
  }

  private async deliver(audio: Blob | string): Promise<void> {
    if (typeof audio === 'string') {
      this.hand(audio)
      return
    }
    this.state.patch({ transcribing: this.state.get().transcribing + 1, error: null })
    try {
      this.hand(await this.deps.transcribe(audio))
    } catch (err) {
      this.state.patch({ error: `Could not transcribe: ${err instanceof Error ? err.message : String(err)}` })
    } finally {
      this.state.patch({ transcribing: this.state.get().transcribing - 1 })
    }
  }

  private hand(text: string): void {
    const t = text.trim()
    if (t !== '') this.transcripts.emit(t)
  }
}
