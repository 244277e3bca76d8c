import { describe, expect, it } from 'vitest'
import type { ChatFrame } from '../api'
import { foldReplyText, visibleText, type ReplyText } from './replyText'

const none: ReplyText = { segments: null, text: '' }
const tok = (text: string, segment?: number): ChatFrame =>
  segment === undefined ? { type: 'token', text } : { type: 'token', text, segment }
const callback = (text: string, segment: number): ChatFrame => ({ type: 'token', text, segment, callback: true })
const done = (fullText: string): ChatFrame => ({
  type: 'done',
  fullText,
  agentName: 'W',
  runId: 'r',
  messageId: 'm',
  actionCallbackHistory: [],
})

/** Folds the frames one at a time, as a stream that gets one per animation frame would. */
function oneByOne(start: ReplyText, frames: ChatFrame[]): ReplyText {
  return frames.reduce((t, f) => foldReplyText(t, [f]), start)
}

describe('visibleText', () => {
  it('joins the non-empty segments with a blank line', () => {
    expect(visibleText([])).toBe('')
    expect(visibleText(['Hello'])).toBe('Hello')
    expect(visibleText(['Hello', '', 'again'])).toBe('Hello\n\nagain')
    expect(visibleText(['', 'Waving'])).toBe('Waving')
  })
})

describe('foldReplyText', () => {
  it('appends deltas to segment 0 when no segment is given', () => {
    expect(foldReplyText(none, [tok('Hel'), tok('lo'), tok(' there', 0)])).toEqual({ segments: ['Hello there'], text: 'Hello there' })
  })

  it('replaces a segment with a callback, and appends to others', () => {
    const t = foldReplyText(none, [tok('Let me wave.'), callback('Waving', 1), tok(' Done', 2), callback('Waved 👋', 1)])
    expect(t).toEqual({ segments: ['Let me wave.', 'Waved 👋', ' Done'], text: 'Let me wave.\n\nWaved 👋\n\n Done' })
  })

  it('fills holes with empty segments, which show nothing', () => {
    const t = foldReplyText(none, [tok('later', 3)])
    expect(t).toEqual({ segments: ['', '', '', 'later'], text: 'later' })
    expect(foldReplyText(t, [tok('first')])).toEqual({ segments: ['first', '', '', 'later'], text: 'first\n\nlater' })
  })

  it('shows nothing for an action that has said nothing yet', () => {
    expect(foldReplyText(none, [tok('Hi'), callback('', 1)]).text).toBe('Hi')
  })

  it('takes a resumed stream\'s reply as the segments so far, then its deltas', () => {
    const before: ReplyText = { segments: ['stale'], text: 'stale' }
    const t = foldReplyText(before, [
      { type: 'reply', segments: ['Hello', 'Waving 👋', ''], fullText: 'Hello\n\nWaving 👋' },
      tok(' again', 2),
      tok('!'),
    ])
    expect(t).toEqual({ segments: ['Hello!', 'Waving 👋', ' again'], text: 'Hello!\n\nWaving 👋\n\n again' })
  })

  it('lets done win over the segments', () => {
    const t = foldReplyText(none, [tok('Hel'), tok('lo'), done('Hello, world')])
    expect(t.text).toBe('Hello, world')
    expect(foldReplyText({ segments: ['a'], text: 'a' }, [done('final')])).toEqual({ segments: ['a'], text: 'final' })
  })

  it('takes the older dialect\'s fullText as the whole reply', () => {
    const t = foldReplyText(none, [
      { type: 'token', text: 'Hel', fullText: 'Hel' },
      { type: 'token', text: 'Waving', fullText: 'Hello\n\nWaving', callback: true },
    ])
    expect(t).toEqual({ segments: null, text: 'Hello\n\nWaving' })
  })

  it('starts the segments afresh when the text so far did not come from them (a replay from the start)', () => {
    const loaded: ReplyText = { segments: null, text: 'saved so far' }
    expect(foldReplyText(loaded, [tok('saved')])).toEqual({ segments: ['saved'], text: 'saved' })
  })

  it('ignores frames that are not text, and returns the same reply when nothing changed', () => {
    const t: ReplyText = { segments: ['a'], text: 'a' }
    expect(foldReplyText(t, [{ type: 'thinking', text: 'hm' }, { type: 'tool_start', callId: 'k', name: 'n', arguments: {} }])).toBe(t)
    expect(foldReplyText(t, [])).toBe(t)
  })

  it('does not change the reply it starts from', () => {
    const segments = ['a', 'b']
    const t: ReplyText = { segments, text: 'a\n\nb' }
    foldReplyText(t, [tok('x'), callback('c', 1)])
    expect(segments).toEqual(['a', 'b'])
  })

  it('gives the same reply for a burst folded at once as for frames folded one by one', () => {
    const frames = [
      tok('The '),
      tok('plan'),
      callback('Running ls', 1),
      tok(':', 0),
      callback('Ran ls', 1),
      tok(' ok', 2),
      { type: 'reply', segments: ['The plan:', 'Ran ls', ' ok'], fullText: 'The plan:\n\nRan ls\n\n ok' } as ChatFrame,
      tok('!', 2),
    ]
    expect(foldReplyText(none, frames)).toEqual(oneByOne(none, frames))
    expect(foldReplyText(none, frames).text).toBe('The plan:\n\nRan ls\n\n ok!')
  })
})
