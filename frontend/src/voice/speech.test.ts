import { describe, expect, it } from 'vitest'
import { FaceBus } from '../avatar/faceBus'
import type { ChatFrame } from '../api'
import { FakeAudioContext, fakeWav } from './fakeAudio.test-util'
import { Speech } from './speech'
import { SpeechPlayer } from './speechPlayer'

const tick = async (n = 3) => {
  for (let i = 0; i < n; i++) await new Promise((r) => setTimeout(r, 0))
}

const speech = (index: number, text: string): ChatFrame => ({ type: 'speech', index, text, segment: 0, start: 0, end: text.length })

function setup(enabled = true) {
  const ctx = new FakeAudioContext()
  const asked: string[] = []
  const notices: string[] = []
  const marks: string[] = []
  const reports: string[] = []
  let on = enabled
  const s = new Speech({
    speak: async (text) => {
      asked.push(text)
      return text === 'garbage' ? new TextEncoder().encode('nope').buffer : fakeWav()
    },
    enabled: () => on,
    notice: (m) => notices.push(m),
    report: (event, detail) => reports.push(`${event}: ${detail}`),
    player: new SpeechPlayer({ context: () => ctx, bus: new FaceBus(), mark: (m) => marks.push(m) }),
  })
  return { s, ctx, asked, notices, marks, reports, set: (v: boolean) => (on = v) }
}

describe('Speech', () => {
  it('speaks the clauses of a stream this window sent, in order', async () => {
    const h = setup()
    h.s.newTurn()
    h.s.onFrame({ type: 'token', text: 'Hi. ' }, 'send')
    h.s.onFrame(speech(0, 'Hi.'), 'send')
    h.s.onFrame(speech(1, 'Bye.'), 'send')
    await tick()
    expect(h.s.state.get()).toEqual({ status: 'playing', index: 0 })
    h.ctx.sources[0]?.end()
    await tick()
    expect(h.s.state.get()).toEqual({ status: 'playing', index: 1 })
    h.ctx.sources[1]?.end()
    await tick()
    expect(h.s.state.get().status).toBe('idle')
    expect(h.asked).toEqual(['Hi.', 'Bye.'])
    expect(h.marks).toEqual(['wisp:first-token', 'wisp:speech-start'])
    expect(h.reports).toEqual(['speech-played: 2 clauses'])
  })

  it('says nothing for a run picked up from elsewhere, or when speaking replies is off', async () => {
    const h = setup(false)
    h.s.onFrame(speech(0, 'Hi.'), 'send')
    h.set(true)
    h.s.onFrame(speech(1, 'Resumed.'), 'resume')
    await tick()
    expect(h.asked).toEqual([])
  })

  it('stop silences the rest of the reply until the next turn', async () => {
    const h = setup()
    h.s.newTurn()
    h.s.onFrame(speech(0, 'One.'), 'send')
    await tick()
    expect(h.s.active()).toBe(true)
    h.s.stop()
    expect(h.ctx.sources[0]?.stopped).toBe(true)
    expect(h.s.active()).toBe(false)
    h.s.onFrame(speech(1, 'Two.'), 'send')
    await tick()
    expect(h.asked).toEqual(['One.'])
    h.s.newTurn()
    h.s.onFrame(speech(0, 'Next reply.'), 'send')
    await tick()
    expect(h.asked).toEqual(['One.', 'Next reply.'])
  })

  it('skips audio that does not decode with one notice', async () => {
    const h = setup()
    h.s.newTurn()
    h.s.onFrame(speech(0, 'garbage'), 'send')
    h.s.onFrame(speech(1, 'Fine.'), 'send')
    await tick()
    expect(h.notices).toHaveLength(1)
    expect(h.notices[0]).toMatch(/could not be decoded/)
    expect(h.reports).toEqual([`speech-failed: ${h.notices[0]}`])
    expect(h.s.state.get()).toEqual({ status: 'playing', index: 1 })
  })

  it('say() speaks a test sentence after stopping what plays', async () => {
    const h = setup()
    h.s.newTurn()
    h.s.onFrame(speech(0, 'Long reply.'), 'send')
    await tick()
    h.s.say('Hello! This is how I sound.')
    await tick()
    expect(h.ctx.sources[0]?.stopped).toBe(true)
    expect(h.asked.at(-1)).toBe('Hello! This is how I sound.')
    expect(h.s.state.get().status).toBe('playing')
  })

  it('aside() speaks what Wisp said on its own, but never over a reply, and not when speaking is off', async () => {
    const h = setup()
    h.s.newTurn()
    h.s.onFrame(speech(0, 'A reply.'), 'send')
    await tick()
    h.s.aside('Reminder: stretch')
    await tick()
    expect(h.asked).toEqual(['A reply.'])
    expect(h.ctx.sources[0]?.stopped).toBe(false)
    h.ctx.sources[0]?.end()
    await tick()
    h.s.aside('Reminder: stretch')
    await tick()
    expect(h.asked).toEqual(['A reply.', 'Reminder: stretch'])
    h.ctx.sources[1]?.end()
    await tick()
    h.set(false)
    h.s.aside('Reminder: drink water')
    await tick()
    expect(h.asked).toHaveLength(2)
  })
})
