// Plays the speech's audio on one AudioContext (made on first use) through an
// AnalyserNode, so the face's mouth follows the sound actually heard: while a
// clause plays, faceBus has a MouthSource whose level() is the analyser's
// smoothed RMS; after it, null. Also marks the benchmark's moments:
// 'wisp:first-token' (a turn's first reply token) and 'wisp:speech-start'
// (that turn's first audio starting).

import { faceBus as pageFaceBus, type FaceBus, type MouthSource } from '../avatar/faceBus'

/** What the player uses of an AudioBuffer. */
export interface AudioBufferLike {
  duration: number
}

/** What the player uses of an AnalyserNode. */
export interface AnalyserLike {
  fftSize: number
  connect(dest: unknown): unknown
  getFloatTimeDomainData(array: Float32Array<ArrayBuffer>): void
}

/** What the player uses of an AudioBufferSourceNode. */
export interface SourceLike {
  buffer: AudioBufferLike | null
  onended: (() => void) | null
  connect(dest: unknown): unknown
  disconnect(): void
  start(): void
  stop(): void
}

/** What the player uses of an AudioContext. */
export interface AudioContextLike {
  state: string
  destination: unknown
  resume(): Promise<void>
  decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike>
  createAnalyser(): AnalyserLike
  createBufferSource(): SourceLike
}

export interface PlayerOptions {
  /** Makes the one AudioContext (first use). */
  context?: () => AudioContextLike
  bus?: FaceBus
  mark?: (name: string) => void
}

/**
 * How long past its length a clause may take before it is taken as stalled and
 * stopped: a suspended context's start (seconds, in WebKitGTK) fits in it.
 */
const STALL_MARGIN_S = 10

/** Why a clause did not end: the page's audio never ran, or its output stalled. */
function stalled(state: string): string {
  return state === 'running'
    ? 'the sound output stalled: the clause did not finish playing'
    : `this window cannot play sound (its audio is ${state}: click in the window once, or check the sound output)`
}

const browserContext = (): AudioContextLike => new AudioContext() as unknown as AudioContextLike
const performanceMark = (name: string): void => {
  try {
    performance.mark(name)
  } catch {
    // A page without the User Timing API: no benchmark marks.
  }
}

export class SpeechPlayer {
  private ctx: AudioContextLike | null = null
  private analyser: AnalyserLike | null = null
  private readonly makeContext: () => AudioContextLike
  private readonly bus: FaceBus
  private readonly mark: (name: string) => void
  private turnStarted = false
  private current: SourceLike | null = null

  constructor(opts: PlayerOptions = {}) {
    this.makeContext = opts.context ?? browserContext
    this.bus = opts.bus ?? pageFaceBus
    this.mark = opts.mark ?? performanceMark
  }

  /** A turn's first reply token came: marks it, and the next audio to start is this turn's first. */
  firstToken(): void {
    this.mark('wisp:first-token')
    this.turnStarted = true
  }

  /** Decodes audio (WAV from the server); rejects with a clear message when it is not audio. */
  async decode(data: ArrayBuffer): Promise<AudioBufferLike> {
    try {
      return await this.context().decodeAudioData(data)
    } catch (err) {
      throw new Error(`the speech server's audio could not be decoded (${err instanceof Error ? err.message : String(err)})`)
    }
  }

  /**
   * Plays audio to its end; stops it when signal aborts (resolving either way).
   * The clause starts at once, even on a context still suspended (it plays when the
   * context runs: WebKitGTK's sound output takes seconds to start, and never says so
   * through resume()); one that has not ended STALL_MARGIN_S past its length is
   * stopped and rejected: the page may not play sound (a browser's autoplay rule)
   * or its output stalled.
   */
  play(audio: AudioBufferLike, signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.resolve()
    const ctx = this.context()
    const analyser = this.analyserOf(ctx)
    const source = ctx.createBufferSource()
    source.buffer = audio
    source.connect(analyser)
    if (ctx.state !== 'running') ctx.resume().catch(() => undefined)
    return new Promise<void>((resolve, reject) => {
      let stall: ReturnType<typeof setTimeout> | undefined
      const finish = (failure?: Error) => {
        clearTimeout(stall)
        signal.removeEventListener('abort', abort)
        source.onended = null
        try {
          source.disconnect()
        } catch {
          // Already disconnected.
        }
        if (this.current === source) {
          this.current = null
          this.bus.setMouth(null)
        }
        if (failure === undefined) resolve()
        else reject(failure)
      }
      const halt = (failure?: Error) => {
        try {
          source.stop()
        } catch {
          // Not started, or already stopped.
        }
        finish(failure)
      }
      const abort = () => halt()
      source.onended = () => finish()
      signal.addEventListener('abort', abort)
      try {
        source.start()
      } catch (err) {
        finish(new Error(`the audio could not start (${err instanceof Error ? err.message : String(err)})`))
        return
      }
      stall = setTimeout(() => halt(new Error(stalled(ctx.state))), (audio.duration + STALL_MARGIN_S) * 1000)
      this.current = source
      if (this.turnStarted) {
        this.turnStarted = false
        this.mark('wisp:speech-start')
      }
      this.bus.setMouth(this.mouth(analyser))
    })
  }

  /**
   * Starts the sound output ahead of the first clause (the AudioContext, resumed):
   * WebKitGTK's takes seconds to run, and a browser lets it start only after a
   * gesture of the user's. It never throws.
   */
  warm(): void {
    try {
      const ctx = this.context()
      if (ctx.state !== 'running') ctx.resume().catch(() => undefined)
    } catch (err) {
      console.warn('wisp speech: no sound output', err)
    }
  }

  private context(): AudioContextLike {
    this.ctx ??= this.makeContext()
    return this.ctx
  }

  private analyserOf(ctx: AudioContextLike): AnalyserLike {
    if (this.analyser === null) {
      const a = ctx.createAnalyser()
      a.fftSize = 1024
      a.connect(ctx.destination)
      this.analyser = a
    }
    return this.analyser
  }

  /** The mouth's source while this clause plays: the analyser's RMS, opened fast and closed a little slower. */
  private mouth(analyser: AnalyserLike): MouthSource {
    const samples = new Float32Array(analyser.fftSize)
    let level = 0
    return {
      level: () => {
        analyser.getFloatTimeDomainData(samples)
        let sum = 0
        for (let i = 0; i < samples.length; i++) {
          const s = samples[i] ?? 0
          sum += s * s
        }
        const target = Math.min(1, Math.sqrt(sum / samples.length) * 4)
        level = target > level ? target : level * 0.7 + target * 0.3
        return level
      },
    }
  }
}
