import { describe, expect, it } from 'vitest'
import { SpeechQueue, type SpeechState } from './speechQueue'

interface Deferred<T> {
  promise: Promise<T>
  resolve(v: T): void
  reject(e: unknown): void
}
function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

/** A queue whose loads and plays the test finishes by hand. */
function harness() {
  const loads: { text: string; signal: AbortSignal; d: Deferred<string> }[] = []
  const plays: { audio: string; index: number; signal: AbortSignal; d: Deferred<void> }[] = []
  const notices: string[] = []
  const states: SpeechState[] = []
  const q = new SpeechQueue<string>({
    load: (text, signal) => {
      const d = deferred<string>()
      loads.push({ text, signal, d })
      return d.promise
    },
    play: (audio, index, signal) => {
      const d = deferred<void>()
      plays.push({ audio, index, signal, d })
      signal.addEventListener('abort', () => d.resolve())
      return d.promise
    },
    notice: (m) => notices.push(m),
    changed: (s) => states.push(s),
  })
  return { q, loads, plays, notices, states }
}

describe('SpeechQueue', () => {
  it('plays clauses in order of their index, one after the other', async () => {
    const h = harness()
    h.q.push(0, 'Hello.')
    h.q.push(1, 'How are you?')
    h.loads[1]?.d.resolve('audio-1')
    h.loads[0]?.d.resolve('audio-0')
    await tick()
    expect(h.plays.map((p) => p.index)).toEqual([0])
    expect(h.q.current).toEqual({ status: 'playing', index: 0 })
    h.plays[0]?.d.resolve()
    await tick()
    expect(h.plays.map((p) => p.audio)).toEqual(['audio-0', 'audio-1'])
    h.plays[1]?.d.resolve()
    await tick()
    expect(h.q.current).toEqual({ status: 'idle', index: null })
    expect(h.states.map((s) => `${s.status}:${s.index}`)).toEqual(['loading:0', 'playing:0', 'loading:1', 'playing:1', 'idle:null'])
  })

  it('plays a lower index that arrives late first, and ignores duplicates and indexes passed', async () => {
    const h = harness()
    h.q.push(2, 'two')
    h.q.push(1, 'one')
    h.q.push(1, 'one again')
    expect(h.q.waiting).toBe(2)
    expect(h.loads.map((l) => l.text)).toEqual(['two', 'one'])
    h.loads[0]?.d.resolve('a2')
    h.loads[1]?.d.resolve('a1')
    await tick()
    expect(h.plays.map((p) => p.index)).toEqual([1])
    h.plays[0]?.d.resolve()
    await tick()
    expect(h.plays.map((p) => p.index)).toEqual([1, 2])
    h.plays[1]?.d.resolve()
    await tick()
    h.q.push(0, 'zero')
    expect(h.q.waiting).toBe(0)
    expect(h.q.current.status).toBe('idle')
  })

  it('fetches at most 2 clauses ahead of the one playing, however many are queued', async () => {
    const h = harness()
    for (let i = 0; i < 2000; i++) h.q.push(i, `clause ${i}.`)
    expect(h.q.waiting).toBe(2000)
    // Nothing plays yet: the head and 2 ahead.
    expect(h.loads).toHaveLength(3)
    h.loads[0]?.d.resolve('a0')
    await tick()
    expect(h.plays).toHaveLength(1)
    expect(h.loads).toHaveLength(3)
    expect(h.q.fetching).toBe(2)
    h.loads[1]?.d.resolve('a1')
    h.plays[0]?.d.resolve()
    await tick()
    expect(h.plays).toHaveLength(2)
    expect(h.loads).toHaveLength(4)
    expect(h.loads.map((l) => l.text).slice(-1)).toEqual(['clause 3.'])
  })

  it('stop aborts every fetch and the sound, clears the queue and forgets the indexes', async () => {
    const h = harness()
    h.q.push(0, 'a')
    h.q.push(1, 'b')
    h.q.push(2, 'c')
    h.q.push(3, 'd')
    h.loads[0]?.d.resolve('a0')
    await tick()
    expect(h.plays).toHaveLength(1)
    h.q.stop()
    expect(h.plays[0]?.signal.aborted).toBe(true)
    expect(h.loads.slice(1).every((l) => l.signal.aborted)).toBe(true)
    expect(h.q.waiting).toBe(0)
    expect(h.q.current).toEqual({ status: 'idle', index: null })
    // Late answers of the old fetches play nothing.
    h.loads[1]?.d.resolve('late')
    await tick()
    expect(h.plays).toHaveLength(1)
    // A new reply counts from 0 again.
    h.q.push(0, 'again')
    expect(h.loads.at(-1)?.text).toBe('again')
    h.loads.at(-1)?.d.resolve('again')
    await tick()
    expect(h.plays.at(-1)?.audio).toBe('again')
  })

  it('skips a clause whose audio fails, with one notice, and goes on', async () => {
    const h = harness()
    h.q.push(0, 'a')
    h.q.push(1, 'b')
    h.q.push(2, 'c')
    h.loads[0]?.d.reject(new Error('not audio'))
    h.loads[1]?.d.reject(new Error('not audio either'))
    h.loads[2]?.d.resolve('a2')
    await tick()
    await tick()
    expect(h.plays.map((p) => p.index)).toEqual([2])
    expect(h.notices).toEqual(['Could not speak part of the reply: not audio'])
  })

  it('skips a clause whose playing throws', async () => {
    const notices: string[] = []
    const played: number[] = []
    const q = new SpeechQueue<string>({
      load: async (t) => t,
      play: async (_a, i) => {
        if (i === 0) throw new Error('no sound')
        played.push(i)
      },
      notice: (m) => notices.push(m),
    })
    q.push(0, 'a')
    q.push(1, 'b')
    for (let i = 0; i < 5; i++) await tick()
    expect(played).toEqual([1])
    expect(notices).toHaveLength(1)
    expect(q.current.status).toBe('idle')
  })

  it('ignores empty text and indexes that are not whole', () => {
    const h = harness()
    h.q.push(0, '   ')
    h.q.push(-1, 'x')
    h.q.push(1.5, 'x')
    expect(h.q.waiting).toBe(0)
    expect(h.loads).toHaveLength(0)
  })
})
