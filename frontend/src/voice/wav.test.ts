import { describe, expect, it } from 'vitest'
import { concatSamples, encodeWav, resample, rms } from './wav'

function header(buf: ArrayBuffer) {
  const v = new DataView(buf)
  const ascii = (at: number, n: number) => String.fromCharCode(...new Uint8Array(buf, at, n))
  return {
    riff: ascii(0, 4),
    wave: ascii(8, 4),
    format: v.getUint16(20, true),
    channels: v.getUint16(22, true),
    rate: v.getUint32(24, true),
    bits: v.getUint16(34, true),
    data: ascii(36, 4),
    dataBytes: v.getUint32(40, true),
    riffBytes: v.getUint32(4, true),
  }
}

describe('encodeWav', () => {
  it('writes 16 kHz mono 16-bit PCM from 48 kHz samples', () => {
    const second = new Float32Array(48_000).fill(0.5)
    const buf = encodeWav(second, 48_000)
    const h = header(buf)
    expect(h).toMatchObject({ riff: 'RIFF', wave: 'WAVE', format: 1, channels: 1, rate: 16_000, bits: 16, data: 'data' })
    expect(h.dataBytes).toBe(32_000)
    expect(h.riffBytes).toBe(36 + 32_000)
    expect(buf.byteLength).toBe(44 + 32_000)
    expect(new DataView(buf).getInt16(44 + 100, true)).toBe(Math.round(0.5 * 0x7fff))
  })

  it('clips samples beyond ±1 and writes NaN as silence', () => {
    const buf = encodeWav(new Float32Array([2, -2, Number.NaN]), 16_000)
    const v = new DataView(buf)
    expect([v.getInt16(44, true), v.getInt16(46, true), v.getInt16(48, true)]).toEqual([32767, -32768, 0])
  })

  it('writes an empty recording as a valid empty WAV', () => {
    const buf = encodeWav(new Float32Array(0), 44_100)
    expect(header(buf).dataBytes).toBe(0)
    expect(buf.byteLength).toBe(44)
  })
})

describe('resample', () => {
  it('averages when going down (44.1 kHz → 16 kHz keeps the length in time)', () => {
    const out = resample(new Float32Array(44_100).fill(0.25), 44_100, 16_000)
    expect(out.length).toBe(16_000)
    expect(out.every((s) => Math.abs(s - 0.25) < 1e-6)).toBe(true)
  })

  it('averages away a tone above the new Nyquist frequency', () => {
    // 24 kHz alternation at 48 kHz: its mean over every 3 samples is small.
    const alt = new Float32Array(4800).map((_, i) => (i % 2 === 0 ? 1 : -1))
    expect(rms(resample(alt, 48_000, 16_000))).toBeLessThan(0.4)
  })

  it('interpolates when going up', () => {
    expect([...resample(new Float32Array([0, 1]), 8_000, 16_000)]).toEqual([0, 0.5, 1, 1])
  })

  it('refuses a rate that is not positive', () => {
    expect(() => resample(new Float32Array(4), 0, 16_000)).toThrow(/sample rate/)
  })
})

describe('concatSamples and rms', () => {
  it('joins chunks in order and measures loudness', () => {
    const joined = concatSamples([new Float32Array([1, 2]), new Float32Array([3])])
    expect([...joined]).toEqual([1, 2, 3])
    expect(rms(new Float32Array([0.5, -0.5]))).toBeCloseTo(0.5)
    expect(rms(new Float32Array(0))).toBe(0)
  })
})
