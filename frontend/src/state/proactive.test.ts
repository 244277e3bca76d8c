import { describe, expect, it } from 'vitest'
import type { Conversation, ProactiveMessage } from '../api'
import { bubblesFromMessages } from './chat'
import { markRead, receiveMessage } from './conversations'
import { isProactiveSource, sourceLabel } from './proactive'
import { initialState, reducer, type Action, type AppState } from './reducer'
import { lone, onBranch } from './messages.test-util'

const iso = (ms: number) => new Date(ms).toISOString()
const T0 = Date.parse('2026-11-21T14:00:00.000Z')

const conv = (id: string, at: number, unread = false): Conversation => ({
  id,
  title: id.toUpperCase(),
  roomId: '',
  createdAt: iso(T0),
  updatedAt: iso(at),
  unread,
})

const reminderMsg = (id: string, at: number, text = 'Reminder: stretch'): ProactiveMessage => ({
  id,
  role: 'assistant',
  text,
  timestamp: at,
  source: 'reminder',
  reminderId: `r-${id}`,
  late: false,
})

const proactive = (conversationId: string, message: ProactiveMessage): Action => ({
  type: 'proactive-message',
  conversationId,
  message,
})

const updated = (conversation: Conversation): Action => ({ type: 'conversation-upserted', conversation })

/** A (new) chat open on openId, A and B in the sidebar (A newest), messages of openId loaded. */
function withOpen(openId: string | null, loaded = onBranch([])): AppState {
  let s = reducer(initialState, { type: 'conversations-loaded', conversations: [conv('b', T0 + 1_000), conv('a', T0 + 2_000)] })
  s = reducer(s, { type: 'chat-open', session: 1, conversationId: openId })
  if (openId !== null) s = reducer(s, { type: 'chat-loaded', session: 1, messages: loaded, display: [] })
  return s
}

const ids = (s: AppState) => s.conversations?.map((c) => c.id)
const unread = (s: AppState, id: string) => s.conversations?.find((c) => c.id === id)?.unread
const shown = (s: AppState) => s.chat.messages.map((m) => [m.id, m.role, m.source])

describe('a proactive message for the open conversation', () => {
  it('is appended to the chat at once as an assistant message, and the conversation moves up unread-free', () => {
    const hello = lone({ id: 'u1', role: 'user', text: 'hi', timestamp: T0, source: 'chat' })
    let s = withOpen('b', [hello])
    s = reducer(s, proactive('b', reminderMsg('m1', T0 + 5_000)))
    expect(shown(s)).toEqual([
      ['u1', 'user', 'chat'],
      ['m1', 'assistant', 'reminder'],
    ])
    expect(s.chat.messages[1]).toMatchObject({ status: 'done', text: 'Reminder: stretch', live: false })
    expect(s.chat.messages[1]?.prompt).toBeUndefined()
    expect(ids(s)).toEqual(['b', 'a'])
    expect(unread(s, 'b')).toBe(false)
  })

  it('is not shown twice: a repeated frame, or a reload that already has it', () => {
    let s = withOpen('b')
    const m = reminderMsg('m1', T0 + 5_000)
    s = reducer(s, proactive('b', m))
    const once = s
    expect(reducer(s, proactive('b', m))).toBe(once)
    // The reload includes the saved message: it shows once.
    s = reducer(s, { type: 'chat-open', session: 2, conversationId: 'b' })
    s = reducer(s, proactive('b', m))
    s = reducer(s, {
      type: 'chat-loaded',
      session: 2,
      messages: [lone({ id: 'm1', role: 'assistant', text: m.text, timestamp: m.timestamp, source: 'reminder' })],
      display: [],
    })
    expect(shown(s)).toEqual([['m1', 'assistant', 'reminder']])
  })

  it('survives a load of the messages that was answered before it was saved', () => {
    let s = reducer(withOpen(null), { type: 'chat-open', session: 3, conversationId: 'b' })
    expect(s.chat.loading).toBe(true)
    s = reducer(s, proactive('b', reminderMsg('m1', T0 + 5_000)))
    const old = lone({ id: 'u1', role: 'user', text: 'hi', timestamp: T0, source: 'chat' })
    s = reducer(s, { type: 'chat-loaded', session: 3, messages: [old], display: [] })
    expect(shown(s)).toEqual([
      ['u1', 'user', 'chat'],
      ['m1', 'assistant', 'reminder'],
    ])
  })

  it('a conversation-updated with unread:true for the open conversation shows no mark', () => {
    let s = withOpen('b')
    s = reducer(s, proactive('b', reminderMsg('m1', T0 + 5_000)))
    s = reducer(s, updated(conv('b', T0 + 5_000, true)))
    expect(unread(s, 'b')).toBe(false)
    expect(ids(s)).toEqual(['b', 'a'])
  })
})

describe('a proactive message for another conversation', () => {
  it('marks it unread and moves it to the top, leaving the open chat alone', () => {
    const s = reducer(withOpen('a'), proactive('b', reminderMsg('m1', T0 + 5_000)))
    expect(ids(s)).toEqual(['b', 'a'])
    expect(unread(s, 'b')).toBe(true)
    expect(s.conversations?.[0]?.updatedAt).toBe(iso(T0 + 5_000))
    expect(s.chat.messages).toEqual([])
  })

  it('ends the same whichever of proactive-message and conversation-updated comes first', () => {
    const server = conv('b', T0 + 5_500, true)
    const msg = reminderMsg('m1', T0 + 5_000)
    const first = reducer(reducer(withOpen('a'), proactive('b', msg)), updated(server))
    const second = reducer(reducer(withOpen('a'), updated(server)), proactive('b', msg))
    for (const s of [first, second]) {
      expect(ids(s)).toEqual(['b', 'a'])
      expect(unread(s, 'b')).toBe(true)
      // The server's updatedAt (later than the message) is kept, never moved back.
      expect(s.conversations?.[0]?.updatedAt).toBe(server.updatedAt)
      expect(s.chat.messages).toEqual([])
    }
  })

  it('also works in a new chat (nothing open)', () => {
    const s = reducer(withOpen(null), proactive('a', reminderMsg('m1', T0 + 5_000)))
    expect(unread(s, 'a')).toBe(true)
    expect(s.chat.messages).toEqual([])
  })

  it('leaves the list alone for a conversation it does not know (it is fetched instead)', () => {
    const s = withOpen('a')
    expect(reducer(s, proactive('zzz', reminderMsg('m1', T0 + 5_000))).conversations).toBe(s.conversations)
    // The conversation-updated that follows lists it.
    const next = reducer(s, updated(conv('zzz', T0 + 5_000, true)))
    expect(ids(next)).toEqual(['zzz', 'a', 'b'])
    expect(unread(next, 'zzz')).toBe(true)
  })

  it('does not make up a list before the first load', () => {
    const s = reducer(initialState, proactive('a', reminderMsg('m1', T0)))
    expect(s.conversations).toBeNull()
  })
})

describe('reading an unread conversation', () => {
  it('clears the mark at once when it is opened, and the server echo keeps it clear', () => {
    let s = reducer(withOpen('a'), proactive('b', reminderMsg('m1', T0 + 5_000)))
    expect(unread(s, 'b')).toBe(true)
    s = reducer(s, { type: 'chat-open', session: 2, conversationId: 'b' })
    expect(unread(s, 'b')).toBe(false)
    expect(ids(s)).toEqual(['b', 'a'])
    s = reducer(s, updated(conv('b', T0 + 5_000, false)))
    expect(unread(s, 'b')).toBe(false)
  })

  it('a list loaded while it is open does not bring its mark back', () => {
    const s = reducer(withOpen('b'), {
      type: 'conversations-loaded',
      conversations: [conv('b', T0 + 5_000, true), conv('a', T0 + 2_000, true)],
    })
    expect(unread(s, 'b')).toBe(false)
    expect(unread(s, 'a')).toBe(true)
  })

  it('another window clearing the mark (conversation-updated unread:false) clears it here', () => {
    let s = reducer(withOpen('a'), proactive('b', reminderMsg('m1', T0 + 5_000)))
    s = reducer(s, updated(conv('b', T0 + 5_000, false)))
    expect(unread(s, 'b')).toBe(false)
  })
})

describe('catching up after a reconnect', () => {
  it('appends only the proactive messages the chat does not show', () => {
    const hello = lone({ id: 'u1', role: 'user', text: 'hi', timestamp: T0, source: 'chat' })
    let s = withOpen('b', [hello])
    s = reducer(s, proactive('b', reminderMsg('m1', T0 + 1_000)))
    const missed = onBranch([
      hello,
      { id: 'm1', role: 'assistant', text: 'Reminder: stretch', timestamp: T0 + 1_000, source: 'reminder' },
      { id: 'm2', role: 'assistant', text: 'Your build finished', timestamp: T0 + 2_000, source: 'terminal' },
      { id: 'x9', role: 'assistant', text: 'an ordinary reply', timestamp: T0 + 3_000, source: 'chat' },
    ])
    s = reducer(s, { type: 'chat-caught-up', session: 1, messages: missed })
    expect(shown(s)).toEqual([
      ['u1', 'user', 'chat'],
      ['m1', 'assistant', 'reminder'],
      ['m2', 'assistant', 'terminal'],
    ])
    // An answer for a conversation opened since is dropped.
    expect(reducer(s, { type: 'chat-caught-up', session: 0, messages: missed }).chat).toBe(s.chat)
  })
})

describe('loaded messages', () => {
  it('keep their source and late flag, and a proactive message answers no prompt', () => {
    const views = bubblesFromMessages(onBranch([
      { id: 'u1', role: 'user', text: 'hi', timestamp: 1, source: 'chat' },
      { id: 'm1', role: 'assistant', text: 'Reminder: stretch', timestamp: 2, source: 'reminder', late: true },
      { id: 'a1', role: 'assistant', text: 'hello', timestamp: 3, source: 'chat', status: 'ended' },
    ]))
    expect(views.map((v) => [v.id, v.source, v.late, v.prompt])).toEqual([
      ['u1', 'chat', undefined, undefined],
      ['m1', 'reminder', true, undefined],
      ['a1', 'chat', undefined, 'hi'],
    ])
  })

  it('label the three proactive sources and a task’s messages, and nothing else', () => {
    expect(['reminder', 'autonomy', 'terminal', 'task', 'chat', undefined].map(sourceLabel)).toEqual([
      'Reminder',
      'On its own',
      'Terminal',
      'Scheduled task',
      null,
      null,
    ])
    expect(isProactiveSource('autonomy')).toBe(true)
    expect(isProactiveSource('chat')).toBe(false)
    // A task's reply answers its scheduled prompt: Regenerate stays.
    expect(isProactiveSource('task')).toBe(false)
  })
})

describe('conversation list helpers', () => {
  const list = [conv('a', T0 + 2_000), conv('b', T0 + 1_000)]

  it('receiveMessage moves forward only and keeps a mark it had', () => {
    expect(receiveMessage(list, 'b', T0, true).map((c) => [c.id, c.unread, c.updatedAt])).toEqual([
      ['a', false, iso(T0 + 2_000)],
      ['b', true, iso(T0 + 1_000)],
    ])
    const marked = receiveMessage(list, 'b', T0 + 3_000, true)
    expect(receiveMessage(marked, 'b', T0 + 4_000, false).find((c) => c.id === 'b')?.unread).toBe(true)
    expect(receiveMessage(list, 'nope', T0, true)).toBe(list)
  })

  it('markRead returns the same list when there is nothing to clear', () => {
    expect(markRead(list, 'a')).toBe(list)
    expect(markRead(list, null)).toBe(list)
    const marked = [conv('a', T0, true)]
    expect(markRead(marked, 'a')[0]?.unread).toBe(false)
  })
})
