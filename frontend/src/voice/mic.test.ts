import { describe, expect, it } from 'vitest'
import { Mic } from './mic'
import type { MicBackend, MicEvents } from './micCapture'

class FakeBackend implements MicBackend {
  events: MicEvents | null = null
  handsFree: boolean | null = null
  take: Blob | string | null = new Blob([new Uint8Array(44)], { type: 'audio/wav' })
  failStart: Error | null = null
  stops = 0
  async start(handsFree: boolean, events: MicEvents): Promise<void> {
    if (this.failStart !== null) throw this.failStart
    this.handsFree = handsFree
    this.events = events
  }
  async stop(): Promise<Blob | string | null> {
    this.stops++
    return this.handsFree === true ? null : this.take
  }
}

function setup(transcribe: (wav: Blob) => Promise<string> = async () => 'hello there') {
  const backend = new FakeBackend()
  let speechStops = 0
  const mic = new Mic({ backend: () => backend, transcribe, stopSpeech: () => speechStops++ })
  const said: string[] = []
  mic.transcripts.add((t) => said.push(t))
  return { mic, backend, said, speechStops: () => speechStops }
}

describe('Mic', () => {
  it('push-to-talk: starting stops the speech, stopping transcribes the take and hands on its text', async () => {
    const h = setup()
    await h.mic.start()
    expect(h.speechStops()).toBe(1)
    expect(h.mic.state.get()).toMatchObject({ recording: true, handsFree: false })
    h.backend.events?.level(0.4)
    expect(h.mic.state.get().level).toBe(0.4)
    await h.mic.stop()
    expect(h.mic.state.get()).toMatchObject({ recording: false, level: 0, transcribing: 0, error: null })
    expect(h.said).toEqual(['hello there'])
  })

  it('toggle starts and stops', async () => {
    const h = setup()
    h.mic.toggle()
    await Promise.resolve()
    expect(h.mic.state.get().recording).toBe(true)
    h.mic.toggle()
    await new Promise((r) => setTimeout(r, 0))
    expect(h.backend.stops).toBe(1)
    expect(h.said).toEqual(['hello there'])
  })

  it('a stop right after start waits for the mic to be open, then stops it', async () => {
    const h = setup()
    void h.mic.start()
    await h.mic.stop()
    expect(h.backend.stops).toBe(1)
    expect(h.mic.state.get().recording).toBe(false)
  })

  it('hands-free: speech heard stops Wisp speaking; each utterance is transcribed', async () => {
    const h = setup(async () => 'what time is it')
    await h.mic.start(true)
    h.backend.events?.speechStart()
    expect(h.speechStops()).toBe(2)
    h.backend.events?.utterance(new Blob([new Uint8Array(44)]))
    h.backend.events?.utterance('already text')
    await new Promise((r) => setTimeout(r, 0))
    expect(h.said).toEqual(['already text', 'what time is it'])
  })

  it('says why when the mic cannot start, and is off', async () => {
    const h = setup()
    h.backend.failStart = new Error('The microphone is blocked: allow it for this page in the browser.')
    await h.mic.start()
    expect(h.mic.state.get()).toMatchObject({ recording: false, error: expect.stringMatching(/blocked/) })
  })

  it('says why a transcription failed, and hands on nothing', async () => {
    const h = setup(async () => {
      throw new Error('the transcription server said: bad audio')
    })
    await h.mic.start()
    await h.mic.stop()
    expect(h.said).toEqual([])
    expect(h.mic.state.get().error).toBe('Could not transcribe: the transcription server said: bad audio')
  })

  it('drops a blank transcript', async () => {
    const h = setup(async () => '  ')
    await h.mic.start()
    await h.mic.stop()
    expect(h.said).toEqual([])
  })

  it('shows a problem while it stays on', async () => {
    const h = setup()
    await h.mic.start(true)
    h.backend.events?.problem('an utterance was dropped')
    expect(h.mic.state.get()).toMatchObject({ recording: true, error: 'an utterance was dropped' })
  })

  it('goes off when the backend ends on its own', async () => {
    const h = setup()
    await h.mic.start(true)
    h.backend.events?.ended('the device went away')
    expect(h.mic.state.get()).toMatchObject({ recording: false, handsFree: false, error: 'the device went away' })
  })
})
