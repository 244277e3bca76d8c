// WAV for the transcription server: the microphone's Float32 samples (at the
// audio context's rate, 44.1 or 48 kHz) resampled to 16 kHz mono and written
// as 16-bit PCM, what every OpenAI-compatible /audio/transcriptions takes and
// what Whisper uses inside (so nothing is lost and the upload is small). Pure.

/** The rate Wisp sends speech at (docs/voice.md). */
export const SPEECH_RATE = 16_000

/** One Float32Array of all the chunks, in order. */
export function concatSamples(chunks: readonly Float32Array[]): Float32Array {
  let n = 0
  for (const c of chunks) n += c.length
  const out = new Float32Array(n)
  let at = 0
  for (const c of chunks) {
    out.set(c, at)
    at += c.length
  }
  return out
}

/**
 * Samples at rate `to`. Down: each output sample is the mean of the input
 * samples it covers (a box filter, enough against aliasing for speech);
 * up: linear interpolation.
 */
export function resample(samples: Float32Array, from: number, to: number): Float32Array {
  if (!(from > 0) || !(to > 0)) throw new Error(`bad sample rate ${from} → ${to}`)
  if (from === to || samples.length === 0) return samples.slice()
  const ratio = from / to
  const n = Math.max(1, Math.floor(samples.length / ratio))
  const out = new Float32Array(n)
  if (ratio > 1) {
    for (let i = 0; i < n; i++) {
      const start = Math.floor(i * ratio)
      const end = Math.min(samples.length, Math.max(start + 1, Math.floor((i + 1) * ratio)))
      let sum = 0
      for (let j = start; j < end; j++) sum += samples[j] ?? 0
      out[i] = sum / (end - start)
    }
    return out
  }
  for (let i = 0; i < n; i++) {
    const pos = i * ratio
    const j = Math.floor(pos)
    const a = samples[j] ?? 0
    const b = samples[Math.min(j + 1, samples.length - 1)] ?? a
    out[i] = a + (b - a) * (pos - j)
  }
  return out
}

/** A sample in [-1, 1] as a signed 16-bit integer (clipped). */
function toInt16(s: number): number {
  const c = Math.max(-1, Math.min(1, Number.isFinite(s) ? s : 0))
  return c < 0 ? Math.round(c * 0x8000) : Math.round(c * 0x7fff)
}

/** A 16 kHz mono 16-bit WAV of samples taken at `rate`. */
export function encodeWav(samples: Float32Array, rate: number, outRate = SPEECH_RATE): ArrayBuffer {
  const pcm = resample(samples, rate, outRate)
  const dataBytes = pcm.length * 2
  const buf = new ArrayBuffer(44 + dataBytes)
  const v = new DataView(buf)
  const ascii = (at: number, s: string) => {
    for (let i = 0; i < s.length; i++) v.setUint8(at + i, s.charCodeAt(i))
  }
  ascii(0, 'RIFF')
  v.setUint32(4, 36 + dataBytes, true)
  ascii(8, 'WAVE')
  ascii(12, 'fmt ')
  v.setUint32(16, 16, true) // fmt chunk size
  v.setUint16(20, 1, true) // PCM
  v.setUint16(22, 1, true) // mono
  v.setUint32(24, outRate, true)
  v.setUint32(28, outRate * 2, true) // bytes per second
  v.setUint16(32, 2, true) // block align
  v.setUint16(34, 16, true) // bits per sample
  ascii(36, 'data')
  v.setUint32(40, dataBytes, true)
  for (let i = 0; i < pcm.length; i++) v.setInt16(44 + i * 2, toInt16(pcm[i] ?? 0), true)
  return buf
}

/** Root mean square of samples (0 for none): the loudness the level meter and the VAD read. */
export function rms(samples: Float32Array): number {
  if (samples.length === 0) return 0
  let sum = 0
  for (let i = 0; i < samples.length; i++) {
    const s = samples[i] ?? 0
    sum += s * s
  }
  return Math.sqrt(sum / samples.length)
}
