import { afterEach, describe, expect, it, vi } from 'vitest'
import type { ChatFrame } from '../api'
import { ManualFrames } from './frames.test-util'
import { EMPTY_LIVE_REPLY, foldLive, type LiveReply } from './liveReply'
import { afterAnimationFrames, ReplyStore } from './replyStore'

const tok = (text: string): ChatFrame => ({ type: 'token', text })

function setup() {
  const frames = new ManualFrames()
  const store = new ReplyStore(frames.schedule)
  let notified = 0
  store.subscribe(() => notified++)
  return { frames, store, notified: () => notified }
}

describe('ReplyStore', () => {
  it('folds every frame that arrived between two animation frames into one update', () => {
    const { frames, store, notified } = setup()
    store.begin('a', EMPTY_LIVE_REPLY)
    expect(notified()).toBe(1)
    const before = store.get()

    for (let i = 1; i <= 500; i++) store.push('a', i, tok(`w${i} `))
    expect(frames.requested).toBe(1)
    expect(store.pending).toBe(500)
    expect(notified()).toBe(1)
    expect(store.get()).toBe(before)

    frames.run()
    expect(notified()).toBe(2)
    expect(store.pending).toBe(0)
    expect(store.reply('a')?.lastSeq).toBe(500)
    expect(store.reply('a')?.text.startsWith('w1 w2 w3 ')).toBe(true)
    expect(store.reply('a')?.text.endsWith('w500 ')).toBe(true)

    // The next token waits for the next frame.
    store.push('a', 501, tok('more'))
    expect(frames.requested).toBe(2)
    frames.run()
    expect(notified()).toBe(3)
    expect(store.reply('a')?.text.endsWith('w500 more')).toBe(true)
  })

  it('changes only the entries of replies that got frames', () => {
    const { frames, store } = setup()
    store.begin('a', EMPTY_LIVE_REPLY)
    store.begin('b', { ...EMPTY_LIVE_REPLY, text: 'kept' })
    const b = store.reply('b')
    store.push('a', 1, tok('x'))
    frames.run()
    expect(store.reply('b')).toBe(b)
    expect(store.reply('a')?.text).toBe('x')
  })

  it('flushes at once (for the end of a reply) and cancels the frame it waited for', () => {
    const { frames, store, notified } = setup()
    store.begin('a', EMPTY_LIVE_REPLY)
    store.push('a', 1, tok('Hel'))
    store.push('a', 2, tok('lo'))
    store.flush()
    expect(store.reply('a')?.text).toBe('Hello')
    expect(notified()).toBe(2)
    expect(frames.pending).toBe(0)
    store.flush()
    expect(notified()).toBe(2)
  })

  it('does not notify when the frames change nothing (repeats)', () => {
    const { frames, store, notified } = setup()
    store.begin('a', { ...EMPTY_LIVE_REPLY, text: 'ab', segments: ['ab'], lastSeq: 2 })
    store.push('a', 1, tok('a'))
    store.push('a', 2, tok('b'))
    frames.run()
    expect(notified()).toBe(1)
  })

  it('forgets everything, queued frames included, when another conversation opens', () => {
    const { frames, store } = setup()
    store.begin('a', EMPTY_LIVE_REPLY)
    store.push('a', 1, tok('x'))
    store.clear()
    expect(frames.pending).toBe(0)
    expect(store.pending).toBe(0)
    expect(store.reply('a')).toBeUndefined()
    store.push('a', 2, tok('y'))
    frames.run()
    expect(store.reply('a')).toBeUndefined()
  })

  it('restarts a reply from a new base, dropping what was queued for it', () => {
    const { frames, store } = setup()
    store.begin('a', EMPTY_LIVE_REPLY)
    store.push('a', 1, tok('old'))
    store.begin('a', { ...EMPTY_LIVE_REPLY, text: 'saved' })
    frames.run()
    expect(store.reply('a')?.text).toBe('saved')
  })
})

describe('foldLive', () => {
  const start: LiveReply = EMPTY_LIVE_REPLY

  it('collects text, thinking and tool cards, and skips repeats', () => {
    const live = foldLive(start, [
      { seq: 1, frame: { type: 'thinking', text: 'Let me ' } },
      { seq: 2, frame: { type: 'thinking', text: 'see.' } },
      { seq: 3, frame: tok('Hel') },
      { seq: 3, frame: tok('Hel') },
      { seq: 4, frame: { type: 'tool_start', callId: 'k', name: 'shell', arguments: { cmd: 'ls' } } },
      { seq: 5, frame: { type: 'tool_end', callId: 'k', name: 'shell', result: 'a.txt' } },
      { seq: 6, frame: { type: 'token', text: 'Ran ls', segment: 1, callback: true } },
      { seq: null, frame: tok('lo') },
    ])
    expect(live).toEqual({
      segments: ['Hello', 'Ran ls'],
      text: 'Hello\n\nRan ls',
      thinking: 'Let me see.',
      tools: [{ callId: 'k', name: 'shell', arguments: { cmd: 'ls' }, status: 'completed', result: 'a.txt' }],
      lastSeq: 6,
    })
    expect(foldLive(live, [{ seq: 6, frame: tok('again') }])).toBe(live)
  })

  it('applies a resumed stream\'s reply even when thinking or tool frames sent before it have later numbers', () => {
    const resumed = foldLive({ ...start, segments: ['Hel'], text: 'Hel', lastSeq: 5 }, [
      { seq: 8, frame: { type: 'thinking', text: 'hm' } },
      { seq: 7, frame: { type: 'reply', segments: ['Hello, I'], fullText: 'Hello, I' } },
      { seq: 9, frame: tok(' am') },
    ])
    expect(resumed).toMatchObject({ text: 'Hello, I am', thinking: 'hm', lastSeq: 9 })
  })
})

describe('afterAnimationFrames', () => {
  /** Animation frames the test runs; MessageChannel is Node's own. */
  function fakeFrames() {
    const due = new Map<number, () => void>()
    let ids = 0
    vi.stubGlobal('requestAnimationFrame', (fn: () => void) => {
      due.set(++ids, fn)
      return ids
    })
    vi.stubGlobal('cancelAnimationFrame', (id: number) => due.delete(id))
    return () => {
      const now = [...due.values()]
      due.clear()
      for (const fn of now) fn()
    }
  }
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('runs fn in a task of its own after the frame, not in the frame', async () => {
    const frame = fakeFrames()
    let ran = 0
    afterAnimationFrames(() => ran++)
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(ran, 'nothing before the frame').toBe(0)
    frame()
    expect(ran, 'not inside the frame callback').toBe(0)
    await vi.waitFor(() => expect(ran).toBe(1))
  })

  it('cancels before the frame and between the frame and the task', async () => {
    const frame = fakeFrames()
    let ran = 0
    let after = 0
    afterAnimationFrames(() => ran++)()
    frame()
    const cancel = afterAnimationFrames(() => ran++)
    frame()
    cancel()
    // One scheduled after both, not cancelled: once it has run, so would they have.
    afterAnimationFrames(() => after++)
    frame()
    await vi.waitFor(() => expect(after).toBe(1))
    expect(ran).toBe(0)
  })
})
