import { describe, expect, it } from 'vitest'
import { BrowserMic, micErrorMessage, type OpenCapture } from './micCapture'
import { micEvents } from './fakeAudio.test-util'

const RATE = 16_000
const CHUNK = 160 // 10 ms

function fakeOpen() {
  let feed: ((s: Float32Array, rate: number) => void) | null = null
  let closed = 0
  const open: OpenCapture = async (onChunk) => {
    feed = onChunk
    return { rate: RATE, close: () => closed++ }
  }
  const push = (level: number, ms: number) => {
    for (let t = 0; t < ms; t += 10) feed?.(new Float32Array(CHUNK).map((_, i) => (i % 2 === 0 ? level : -level)), RATE)
  }
  return { open, push, closed: () => closed }
}

describe('BrowserMic', () => {
  it('push-to-talk: records until stop, closes the mic at once and answers a 16 kHz WAV', async () => {
    const f = fakeOpen()
    const { got, events } = micEvents()
    const mic = new BrowserMic(f.open)
    await mic.start(false, events)
    f.push(0.1, 500)
    const take = await mic.stop()
    expect(f.closed()).toBe(1)
    expect(take).toBeInstanceOf(Blob)
    expect((take as Blob).type).toBe('audio/wav')
    expect((take as Blob).size).toBe(44 + 500 * 16 * 2)
    expect(got.levels.length).toBe(50)
    expect(got.levels[0]).toBeCloseTo(0.4)
  })

  it('answers nothing for a take with no audio', async () => {
    const f = fakeOpen()
    const mic = new BrowserMic(f.open)
    await mic.start(false, micEvents().events)
    expect(await mic.stop()).toBeNull()
    expect(f.closed()).toBe(1)
  })

  it('hands-free: the VAD cuts utterances, with a little audio from before the start', async () => {
    const f = fakeOpen()
    const { got, events } = micEvents()
    const mic = new BrowserMic(f.open)
    await mic.start(true, events)
    f.push(0.001, 500)
    f.push(0.2, 1000)
    expect(got.starts).toBe(1)
    f.push(0.001, 1000)
    expect(got.utterances).toHaveLength(1)
    const wav = got.utterances[0] as Blob
    // ≈ 300 ms before + 1 s of voice + the 800 ms of silence that ended it.
    const seconds = (wav.size - 44) / 2 / RATE
    expect(seconds).toBeGreaterThan(1.9)
    expect(seconds).toBeLessThan(2.3)
    expect(await mic.stop()).toBeNull()
    expect(f.closed()).toBe(1)
  })

  it('says why the mic could not open, in words', async () => {
    const mic = new BrowserMic(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError')
    })
    await expect(mic.start(false, micEvents().events)).rejects.toThrow(/blocked/)
    expect(micErrorMessage(new DOMException('x', 'NotFoundError'))).toBe('No microphone was found.')
  })
})
