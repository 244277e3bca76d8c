// The microphone in the browser: getUserMedia with echo cancellation and noise
// suppression, its samples taken through a ScriptProcessor (no worklet file to
// serve), and the track stopped the moment recording ends, so the browser's
// "mic in use" mark goes away with it. BrowserMic records one push-to-talk
// take as a 16 kHz WAV, or, hands-free, cuts the stream into utterances with
// the VAD and hands each on as a WAV.

import { Vad } from './vad'
import { concatSamples, encodeWav, rms } from './wav'

/** An open microphone. */
export interface Capture {
  /** The samples' rate (the audio context's). */
  rate: number
  /** Stops the track (mic off) and closes the audio graph. */
  close(): void
}

/** Opens the mic and calls onChunk with each block of mono samples. */
export type OpenCapture = (onChunk: (samples: Float32Array, rate: number) => void) => Promise<Capture>

/** What the mic hands on. */
export interface MicEvents {
  /** Loudness now, 0–1 (~10 times a second or more). */
  level(level: number): void
  /** Hands-free: the VAD heard the user start to speak (speech playing stops). */
  speechStart(): void
  /** Hands-free: one utterance, as a WAV or as text already transcribed (the desktop). */
  utterance(audio: Blob | string): void
  /** The mic stopped on its own (an error, or the device went away). */
  ended(error: string | null): void
  /** Something went wrong but the mic stays on (an utterance dropped). */
  problem(message: string): void
}

/** One way to listen (the browser's getUserMedia, or the desktop's Go capture). */
export interface MicBackend {
  start(handsFree: boolean, events: MicEvents): Promise<void>
  /** Stops listening: a push-to-talk take as a WAV or text (null when hands-free or nothing was heard). */
  stop(): Promise<Blob | string | null>
}

/** A take longer than this is cut (the STT servers take 25 MiB: 5 min of 16 kHz is 9.6 MB). */
export const MAX_TAKE_SECONDS = 300
/** Audio kept from before the VAD's start, so the first syllable is not cut. */
const PRE_ROLL_MS = 300

/** getUserMedia → a ScriptProcessor feeding onChunk; the graph goes to a muted gain (it must reach the destination to run). */
export const openBrowserCapture: OpenCapture = async (onChunk) => {
  const media = navigator.mediaDevices
  if (media?.getUserMedia === undefined) throw new Error('This browser gives no access to a microphone here (it needs https or localhost).')
  const stream = await media.getUserMedia({ audio: { echoCancellation: true, noiseSuppression: true, channelCount: 1 } })
  let ctx: AudioContext
  try {
    ctx = new AudioContext()
  } catch (err) {
    for (const t of stream.getTracks()) t.stop()
    throw err
  }
  const source = ctx.createMediaStreamSource(stream)
  const proc = ctx.createScriptProcessor(2048, 1, 1)
  const mute = ctx.createGain()
  mute.gain.value = 0
  proc.onaudioprocess = (e) => onChunk(new Float32Array(e.inputBuffer.getChannelData(0)), ctx.sampleRate)
  source.connect(proc)
  proc.connect(mute)
  mute.connect(ctx.destination)
  if (ctx.state === 'suspended') await ctx.resume().catch(() => undefined)
  return {
    rate: ctx.sampleRate,
    close: () => {
      for (const t of stream.getTracks()) t.stop()
      proc.onaudioprocess = null
      source.disconnect()
      proc.disconnect()
      void ctx.close().catch(() => undefined)
    },
  }
}

/** A readable message for getUserMedia's refusals. */
export function micErrorMessage(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : ''
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'The microphone is blocked: allow it for this page in the browser.'
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'No microphone was found.'
  if (name === 'NotReadableError') return 'The microphone is in use by another program.'
  return err instanceof Error ? err.message : String(err)
}

export class BrowserMic implements MicBackend {
  private capture: Capture | null = null
  private chunks: Float32Array[] = []
  private samples = 0
  private handsFree = false
  private vad = new Vad()
  private preRoll: Float32Array[] = []
  private preRollSamples = 0

  constructor(private readonly open: OpenCapture = openBrowserCapture) {}

  async start(handsFree: boolean, events: MicEvents): Promise<void> {
    if (this.capture !== null) return
    this.handsFree = handsFree
    this.reset()
    this.vad = new Vad()
    try {
      this.capture = await this.open((chunk, rate) => this.take(chunk, rate, events))
    } catch (err) {
      throw new Error(micErrorMessage(err))
    }
  }

  async stop(): Promise<Blob | string | null> {
    const capture = this.capture
    if (capture === null) return null
    this.capture = null
    capture.close()
    const take = this.handsFree || this.samples === 0 ? null : new Blob([encodeWav(concatSamples(this.chunks), capture.rate)], { type: 'audio/wav' })
    this.reset()
    return take
  }

  private reset(): void {
    this.chunks = []
    this.samples = 0
    this.preRoll = []
    this.preRollSamples = 0
  }

  private take(chunk: Float32Array, rate: number, events: MicEvents): void {
    const level = rms(chunk)
    events.level(Math.min(1, level * 4))
    if (!this.handsFree) {
      if (this.samples >= MAX_TAKE_SECONDS * rate) return
      this.chunks.push(chunk)
      this.samples += chunk.length
      return
    }
    const ev = this.vad.push(level, (chunk.length / rate) * 1000)
    if (ev === 'speech-start') {
      this.chunks = [...this.preRoll]
      this.samples = this.preRollSamples
      events.speechStart()
    }
    if (this.vad.speaking || ev === 'speech-start') {
      this.chunks.push(chunk)
      this.samples += chunk.length
    } else if (ev === 'utterance-end') {
      const wav = new Blob([encodeWav(concatSamples(this.chunks), rate)], { type: 'audio/wav' })
      this.chunks = []
      this.samples = 0
      events.utterance(wav)
    } else {
      this.preRoll.push(chunk)
      this.preRollSamples += chunk.length
      while (this.preRoll.length > 1 && this.preRollSamples - (this.preRoll[0]?.length ?? 0) >= (PRE_ROLL_MS / 1000) * rate) {
        this.preRollSamples -= this.preRoll.shift()?.length ?? 0
      }
    }
  }
}
