import { afterEach, describe, expect, it, vi } from 'vitest'
import { FaceBus } from '../avatar/faceBus'
import { FakeAudioContext, fakeWav } from './fakeAudio.test-util'
import { SpeechPlayer } from './speechPlayer'

const tick = () => new Promise((r) => setTimeout(r, 0))

function setup() {
  const ctx = new FakeAudioContext()
  const bus = new FaceBus()
  const marks: string[] = []
  let made = 0
  const player = new SpeechPlayer({
    context: () => {
      made++
      return ctx
    },
    bus,
    mark: (m) => marks.push(m),
  })
  return { ctx, bus, marks, player, made: () => made }
}

describe('SpeechPlayer', () => {
  it('gives the face a mouth while a clause plays and takes it away after', async () => {
    const { ctx, bus, player } = setup()
    const audio = await player.decode(fakeWav())
    const done = player.play(audio, new AbortController().signal)
    await tick()
    expect(ctx.sources[0]?.started).toBe(true)
    expect(bus.speaking()).toBe(true)
    ctx.analyser.sample = 0.2
    const open = bus.mouth()?.level() ?? 0
    expect(open).toBeGreaterThan(0.5)
    ctx.analyser.sample = 0
    expect(bus.mouth()?.level() ?? 1).toBeLessThan(open)
    ctx.sources[0]?.end()
    await done
    expect(bus.speaking()).toBe(false)
  })

  it('uses one AudioContext and one analyser for every clause', async () => {
    const s = setup()
    for (let i = 0; i < 3; i++) {
      const p = s.player.play(await s.player.decode(fakeWav()), new AbortController().signal)
      await tick()
      s.ctx.sources[i]?.end()
      await p
    }
    expect(s.made()).toBe(1)
    expect(s.ctx.analysers).toBe(1)
  })

  it('stops the sound at once when aborted', async () => {
    const { ctx, bus, player } = setup()
    const ctrl = new AbortController()
    const done = player.play(await player.decode(fakeWav()), ctrl.signal)
    await tick()
    ctrl.abort()
    await done
    expect(ctx.sources[0]?.stopped).toBe(true)
    expect(bus.speaking()).toBe(false)
  })

  it('refuses audio it cannot decode with a clear message', async () => {
    const { player } = setup()
    await expect(player.decode(new TextEncoder().encode('<html>').buffer)).rejects.toThrow(/could not be decoded/)
  })

  it('marks the first token and the first audio of a turn, once each', async () => {
    const { ctx, marks, player } = setup()
    player.firstToken()
    for (let i = 0; i < 2; i++) {
      const p = player.play(await player.decode(fakeWav()), new AbortController().signal)
      await tick()
      ctx.sources[i]?.end()
      await p
    }
    expect(marks).toEqual(['wisp:first-token', 'wisp:speech-start'])
  })

  it('resumes a suspended context before it plays (autoplay policy)', async () => {
    const { ctx, player } = setup()
    ctx.state = 'suspended'
    const p = player.play(await player.decode(fakeWav()), new AbortController().signal)
    await tick()
    expect(ctx.state).toBe('running')
    expect(ctx.sources[0]?.started).toBe(true)
    ctx.sources[0]?.end()
    await p
  })

  it('warm() starts the sound output ahead of the first clause, once, and never throws', async () => {
    const { ctx, player, made } = setup()
    ctx.state = 'suspended'
    player.warm()
    await tick()
    expect(ctx.state).toBe('running')
    player.warm()
    expect(made()).toBe(1)
    const broken = new SpeechPlayer({
      context: () => {
        throw new Error('no audio here')
      },
    })
    expect(() => broken.warm()).not.toThrow()
  })

  describe('a window that cannot play sound', () => {
    afterEach(() => {
      vi.useRealTimers()
    })

    it('gives up on a context that never runs, a while past the clause, with a clear reason, and no mouth', async () => {
      vi.useFakeTimers()
      const { ctx, bus, player } = setup()
      ctx.state = 'suspended'
      ctx.resume = () => new Promise<void>(() => undefined) // a browser's, before any click: never settles
      const p = player.play(await player.decode(fakeWav(48_000)), new AbortController().signal) // the fake's 1 s
      const failed = expect(p).rejects.toThrow(/cannot play sound \(its audio is suspended/)
      await vi.advanceTimersByTimeAsync(10_999)
      expect(ctx.sources[0]?.stopped).toBe(false)
      await vi.advanceTimersByTimeAsync(1)
      await failed
      expect(ctx.sources[0]?.stopped).toBe(true)
      expect(bus.mouth()).toBeNull()
    })

    it('plays a clause started on a context whose resume() never settles once it runs all the same', async () => {
      vi.useFakeTimers()
      const { ctx, player } = setup()
      ctx.state = 'suspended'
      ctx.resume = () => new Promise<void>(() => undefined)
      const p = player.play(await player.decode(fakeWav()), new AbortController().signal)
      expect(ctx.sources[0]?.started).toBe(true)
      await vi.advanceTimersByTimeAsync(3_000)
      ctx.state = 'running' // the sink started, seconds later: the clause plays and ends
      ctx.sources[0]?.end()
      await p
    })

    it('stops a clause whose output stalls, a while past its length, as a failure', async () => {
      vi.useFakeTimers()
      const { ctx, bus, player } = setup()
      const p = player.play(await player.decode(fakeWav(48_000)), new AbortController().signal)
      const failed = expect(p).rejects.toThrow(/stalled/)
      expect(bus.mouth()).not.toBeNull()
      await vi.advanceTimersByTimeAsync(11_000)
      await failed
      expect(ctx.sources[0]?.stopped).toBe(true)
      expect(bus.mouth()).toBeNull()
    })
  })
})
