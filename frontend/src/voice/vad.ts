// Voice activity detection by energy, the same rule as the Go side's mic.VAD
// (docs/voice.md): the noise floor adapts to the room (it follows quiet frames
// up slowly and quieter frames down at once), a frame is voiced when its RMS
// is well above the floor, speech starts after ≥ 150 ms of voiced frames, and
// the utterance ends after 800 ms without voice or at 30 s. Pure: the capture
// feeds it each chunk's RMS and duration.

export interface VadOptions {
  /** Voiced this long before it counts as speech. */
  startMs?: number
  /** Unvoiced this long after speech ends the utterance. */
  endSilenceMs?: number
  /** An utterance longer than this ends anyway. */
  maxMs?: number
  /** Voiced: RMS above floor × ratio (and above minLevel). */
  ratio?: number
  /** The quietest level that can ever be speech (a silent line never triggers). */
  minLevel?: number
}

export type VadEvent = 'speech-start' | 'utterance-end' | null

export const VAD_DEFAULTS: Required<VadOptions> = {
  startMs: 150,
  endSilenceMs: 800,
  maxMs: 30_000,
  ratio: 3,
  minLevel: 0.01,
}

export class Vad {
  private readonly o: Required<VadOptions>
  /** The room's noise level; starts low, so the first speech is heard. */
  private floor = 0.003
  private voicedMs = 0
  private silentMs = 0
  private speechMs = 0
  private inSpeech = false

  constructor(opts: VadOptions = {}) {
    this.o = { ...VAD_DEFAULTS, ...opts }
  }

  /** In an utterance (speech started and has not ended). */
  get speaking(): boolean {
    return this.inSpeech
  }

  /** The level a frame must pass to be voiced now. */
  threshold(): number {
    return Math.max(this.o.minLevel, this.floor * this.o.ratio)
  }

  /** Feeds one frame; returns what it changed. */
  push(level: number, ms: number): VadEvent {
    const voiced = level > this.threshold()
    this.adapt(level, ms, voiced)
    if (!this.inSpeech) {
      this.voicedMs = voiced ? this.voicedMs + ms : 0
      if (this.voicedMs < this.o.startMs) return null
      this.inSpeech = true
      this.speechMs = this.voicedMs
      this.silentMs = 0
      return 'speech-start'
    }
    this.speechMs += ms
    this.silentMs = voiced ? 0 : this.silentMs + ms
    if (this.silentMs >= this.o.endSilenceMs || this.speechMs >= this.o.maxMs) {
      this.reset()
      return 'utterance-end'
    }
    return null
  }

  /** Forgets the utterance (the floor is kept). */
  reset(): void {
    this.inSpeech = false
    this.voicedMs = 0
    this.silentMs = 0
    this.speechMs = 0
  }

  private adapt(level: number, ms: number, voiced: boolean): void {
    if (level < this.floor) {
      this.floor = level
      return
    }
    // Rises towards a louder room: about 5 %/100 ms from quiet frames, 1 %/100 ms
    // from voiced ones (a steady fan is learned in seconds; speech dips between
    // syllables and pulls the floor back down).
    const k = Math.min(1, (voiced ? 0.01 : 0.05) * (ms / 100))
    this.floor += (level - this.floor) * k
  }
}
