// A fake AudioContext for the player's tests: sources end when the test says.

import type { MicEvents } from './micCapture'
import type { AnalyserLike, AudioBufferLike, AudioContextLike, SourceLike } from './speechPlayer'

export class FakeSource implements SourceLike {
  buffer: AudioBufferLike | null = null
  onended: (() => void) | null = null
  started = false
  stopped = false
  connect(): unknown {
    return undefined
  }
  disconnect(): void {}
  start(): void {
    this.started = true
  }
  stop(): void {
    this.stopped = true
  }
  /** The audio played to its end. */
  end(): void {
    this.onended?.()
  }
}

export class FakeAnalyser implements AnalyserLike {
  fftSize = 2048
  /** The value every sample of the analyser's window has. */
  sample = 0
  connect(): unknown {
    return undefined
  }
  getFloatTimeDomainData(array: Float32Array<ArrayBuffer>): void {
    array.fill(this.sample)
  }
}

export class FakeAudioContext implements AudioContextLike {
  state = 'running'
  destination = {}
  readonly sources: FakeSource[] = []
  readonly analyser = new FakeAnalyser()
  analysers = 0
  async resume(): Promise<void> {
    this.state = 'running'
  }
  async decodeAudioData(data: ArrayBuffer): Promise<AudioBufferLike> {
    const head = String.fromCharCode(...new Uint8Array(data.slice(0, 4)))
    if (head !== 'RIFF') throw new Error('Unable to decode audio data')
    return { duration: data.byteLength / 48_000 }
  }
  createAnalyser(): AnalyserLike {
    this.analysers++
    return this.analyser
  }
  createBufferSource(): SourceLike {
    const s = new FakeSource()
    this.sources.push(s)
    return s
  }
}

/** A few bytes that the fake decodes. */
export function fakeWav(n = 64): ArrayBuffer {
  const b = new Uint8Array(n)
  b.set([0x52, 0x49, 0x46, 0x46])
  return b.buffer
}

/** MicEvents that keep what a backend reported, for the mic backends' tests. */
export function micEvents() {
  const got = { levels: [] as number[], starts: 0, utterances: [] as (Blob | string)[], ended: [] as (string | null)[], problems: [] as string[] }
  const events: MicEvents = {
    level: (l) => got.levels.push(l),
    speechStart: () => got.starts++,
    utterance: (a) => got.utterances.push(a),
    ended: (e) => got.ended.push(e),
    problem: (m) => got.problems.push(m),
  }
  return { got, events }
}
