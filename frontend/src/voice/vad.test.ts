import { describe, expect, it } from 'vitest'
import { Vad, type VadEvent } from './vad'

/** Feeds frames of 10 ms at level for ms; returns the events with the time they came. */
function feed(vad: Vad, level: number, ms: number, t0 = 0): { at: number; ev: VadEvent }[] {
  const out: { at: number; ev: VadEvent }[] = []
  for (let t = 10; t <= ms; t += 10) {
    const ev = vad.push(level, 10)
    if (ev !== null) out.push({ at: t0 + t, ev })
  }
  return out
}

describe('Vad', () => {
  it('hears speech after 150 ms above the floor and ends the utterance after 800 ms of silence', () => {
    const vad = new Vad()
    expect(feed(vad, 0.001, 500)).toEqual([])
    expect(feed(vad, 0.2, 1000, 500)).toEqual([{ at: 650, ev: 'speech-start' }])
    expect(vad.speaking).toBe(true)
    expect(feed(vad, 0.001, 1000, 1500)).toEqual([{ at: 2300, ev: 'utterance-end' }])
    expect(vad.speaking).toBe(false)
  })

  it('ignores a click shorter than 150 ms', () => {
    const vad = new Vad()
    feed(vad, 0.001, 300)
    expect(feed(vad, 0.5, 140)).toEqual([])
    expect(feed(vad, 0.001, 300)).toEqual([])
  })

  it('keeps an utterance through short pauses between words', () => {
    const vad = new Vad()
    feed(vad, 0.001, 300)
    const events = [...feed(vad, 0.2, 400), ...feed(vad, 0.001, 500), ...feed(vad, 0.2, 400)]
    expect(events.map((e) => e.ev)).toEqual(['speech-start'])
    expect(vad.speaking).toBe(true)
  })

  it('ends an utterance at 30 s even without a pause', () => {
    const vad = new Vad()
    const events: VadEvent[] = []
    // Syllables: 250 ms of voice, 50 ms dips (shorter than a pause).
    for (let t = 0; t < 31_000; t += 300) events.push(...feed(vad, 0.3, 250).map((e) => e.ev), ...feed(vad, 0.02, 50).map((e) => e.ev))
    expect(events).toEqual(['speech-start', 'utterance-end', 'speech-start'])
  })

  it('adapts its floor to a noisy room: steady noise is not speech, voice above it is', () => {
    const vad = new Vad()
    // A fan at 0.02 starts as "voice" before the floor has learned it; the floor rises to it.
    feed(vad, 0.02, 20_000)
    vad.reset()
    expect(vad.threshold()).toBeGreaterThan(0.04)
    expect(feed(vad, 0.02, 2000)).toEqual([])
    expect(feed(vad, 0.3, 200).map((e) => e.ev)).toEqual(['speech-start'])
  })

  it('never takes a silent line for speech', () => {
    const vad = new Vad()
    expect(feed(vad, 0, 5000)).toEqual([])
    expect(vad.threshold()).toBeGreaterThanOrEqual(0.01)
  })
})
