import { describe, expect, it } from 'vitest'
import type { ChatFrame, DisplayMessage } from '../api'
import {
  applyFrame,
  bubblesFromMessages,
  chatReducer,
  extrasByRun,
  initialChat,
  interruptionReason,
  isReplying,
  retryable,
  streamingReply,
  type ChatState,
} from './chat'
import type { LiveReply } from './liveReply'
import { initialState, reducer } from './reducer'
import { onBranch } from './messages.test-util'

const messages = onBranch([
  { id: 'u1', role: 'user', text: 'first', timestamp: 1 },
  { id: 'a1', role: 'assistant', text: 'ok', timestamp: 2, runId: 'r1', status: 'ended' },
  { id: 'u2', role: 'user', text: 'second', timestamp: 3 },
  { id: 'a2', role: 'assistant', text: 'partial', timestamp: 4, runId: 'r2', status: 'failed', error: 'model down' },
  { id: 'u3', role: 'user', text: 'third', timestamp: 5 },
  { id: 'a3', role: 'assistant', text: 'so far', timestamp: 6, runId: 'r3', status: 'active' },
  { id: 'a4', role: 'assistant', text: '', timestamp: 7, status: 'interrupted' },
])

function opened(session = 1): ChatState {
  return chatReducer(initialChat, { type: 'chat-open', session, conversationId: 'c1' })
}

function sent(): ChatState {
  return chatReducer(opened(), { type: 'chat-sent', session: 1, userKey: 'l1', replyKey: 'l2', text: 'hello', ts: 9 })
}

const frame = (s: ChatState, seq: number | null, f: ChatFrame, key = 'l2') =>
  chatReducer(s, { type: 'chat-frame', session: 1, key, seq, frame: f })

const reply = (s: ChatState) => s.messages[s.messages.length - 1]!

describe('bubblesFromMessages', () => {
  it('maps run status to bubble status and remembers the prompt of each reply', () => {
    const views = bubblesFromMessages(messages)
    expect(views.map((v) => [v.key, v.role, v.status, v.prompt, v.error])).toEqual([
      ['u1', 'user', 'done', undefined, undefined],
      ['a1', 'assistant', 'done', 'first', undefined],
      ['u2', 'user', 'done', undefined, undefined],
      ['a2', 'assistant', 'error', 'second', 'model down'],
      ['u3', 'user', 'done', undefined, undefined],
      ['a3', 'assistant', 'streaming', 'third', undefined],
      ['a4', 'assistant', 'stopped', 'third', undefined],
    ])
    expect(views[5]).toMatchObject({ runId: 'r3', text: 'so far', live: false, lastSeq: 0 })
  })

  it('shows an interrupted reply as stopped with its text and reason', () => {
    const views = bubblesFromMessages(
      onBranch([
        { id: 'u', role: 'user', text: 'tell me', timestamp: 1 },
        { id: 'a', role: 'assistant', text: 'Once upon', timestamp: 2, runId: 'r', status: 'interrupted', error: 'stopped by the user' },
      ]),
    )
    expect(views[1]).toMatchObject({ status: 'stopped', text: 'Once upon', stopReason: 'stopped by the user', prompt: 'tell me' })
    expect(views[1]?.error).toBeUndefined()
  })
})

describe('applyFrame', () => {
  it('replaces the text with fullText, collects thinking and tool states', () => {
    let s = sent()
    expect(reply(s)).toMatchObject({ role: 'assistant', status: 'streaming', text: '', prompt: 'hello' })
    s = frame(s, 1, { type: 'thinking', text: 'Let me ' })
    s = frame(s, 2, { type: 'thinking', text: 'see.' })
    s = frame(s, 3, { type: 'token', text: 'Hel', fullText: 'Hel' })
    s = frame(s, 4, { type: 'tool_start', callId: 'k1', name: 'shell', arguments: { cmd: 'ls' } })
    expect(reply(s).tools).toEqual([{ callId: 'k1', name: 'shell', arguments: { cmd: 'ls' }, status: 'executing' }])
    s = frame(s, 5, { type: 'token', text: 'Running ls…', fullText: 'Hel\n\nRunning ls…' })
    s = frame(s, 6, { type: 'tool_end', callId: 'k1', name: 'shell', result: 'a.txt' })
    s = frame(s, 7, { type: 'tool_start', callId: 'k2', name: 'web', arguments: {} })
    s = frame(s, 8, { type: 'tool_end', callId: 'k2', name: 'web', error: 'offline' })
    s = frame(s, 9, { type: 'done', fullText: 'Hello', agentName: 'W', runId: 'r9', messageId: 'm9', actionCallbackHistory: [] })
    expect(reply(s)).toMatchObject({
      key: 'l2',
      id: 'm9',
      runId: 'r9',
      text: 'Hello',
      status: 'done',
      thinking: 'Let me see.',
      lastSeq: 9,
      tools: [
        { callId: 'k1', status: 'completed', result: 'a.txt', arguments: { cmd: 'ls' } },
        { callId: 'k2', status: 'failed', error: 'offline' },
      ],
    })
  })

  it('ignores repeated frames by sequence number', () => {
    const b = reply(frame(sent(), 2, { type: 'thinking', text: 'x' }))
    expect(applyFrame(b, 2, { type: 'thinking', text: 'x' })).toBe(b)
    expect(applyFrame(b, 1, { type: 'thinking', text: 'x' })).toBe(b)
    expect(applyFrame(b, null, { type: 'thinking', text: 'y' }).thinking).toBe('xy')
  })

  it('marks the reply failed on an error frame and stops running tools', () => {
    let s = frame(sent(), 1, { type: 'tool_start', callId: 'k', name: 'n', arguments: {} })
    s = frame(s, 2, { type: 'error', message: 'interrupted' })
    expect(reply(s)).toMatchObject({ status: 'error', error: 'interrupted', tools: [{ status: 'interrupted' }] })
    expect(retryable(s, 'l2')).toBe(true)
  })
})

describe('a reply streamed through the ReplyStore', () => {
  const live: LiveReply = {
    segments: ['You said', 'Waving'],
    text: 'You said\n\nWaving',
    thinking: 'hm',
    tools: [{ callId: 'k', name: 'wave', arguments: {}, status: 'executing' }],
    lastSeq: 7,
  }

  it('keeps what the store showed when it ends, with done\'s text as the final reply', () => {
    const s = chatReducer(sent(), {
      type: 'chat-frame',
      session: 1,
      key: 'l2',
      seq: 8,
      frame: { type: 'done', fullText: 'You said hi', agentName: 'W', runId: 'r', messageId: 'm', actionCallbackHistory: [] },
      live,
    })
    expect(reply(s)).toMatchObject({ status: 'done', text: 'You said hi', thinking: 'hm', tools: live.tools, lastSeq: 8, live: true, id: 'm' })
  })

  it('keeps the partial text of a reply stopped or failed mid-stream', () => {
    const userStop = 'The reply was interrupted: stopped by the user'
    const stopped = chatReducer(sent(), { type: 'chat-frame', session: 1, key: 'l2', seq: 8, frame: { type: 'error', message: userStop }, live })
    expect(reply(stopped)).toMatchObject({ status: 'stopped', text: live.text, tools: [{ status: 'interrupted' }], lastSeq: 8 })
    const failed = chatReducer(sent(), { type: 'chat-failed', session: 1, key: 'l2', message: 'offline', live })
    expect(reply(failed)).toMatchObject({ status: 'error', error: 'offline', text: live.text, thinking: 'hm', lastSeq: 7 })
  })

  it('folds delta-dialect frames like the store does', () => {
    let s = frame(sent(), 1, { type: 'token', text: 'Hel' })
    s = frame(s, 2, { type: 'token', text: 'lo' })
    s = frame(s, 3, { type: 'token', text: 'Waving', segment: 1, callback: true })
    expect(reply(s)).toMatchObject({ text: 'Hello\n\nWaving', segments: ['Hello', 'Waving'], lastSeq: 3 })
    s = frame(s, 5, { type: 'reply', segments: ['Hello there', 'Waved'], fullText: 'Hello there\n\nWaved' })
    expect(reply(s)).toMatchObject({ text: 'Hello there\n\nWaved', lastSeq: 5 })
  })

  it('forgets the segments when a reply is picked up from the start', () => {
    const s = chatReducer(frame(sent(), 1, { type: 'token', text: 'Hel' }), { type: 'chat-resume', session: 1, key: 'l2', fromStart: true })
    expect(reply(s)).toMatchObject({ segments: null, text: 'Hel', lastSeq: 0 })
  })

  it('takes reloaded display messages when catching up', () => {
    const d: DisplayMessage = {
      id: 'd1',
      conversationId: 'c1',
      messageType: 'tool',
      contentType: 'tool_call',
      content: { callId: 'k', name: 'n' },
      createdAt: 1,
      updatedAt: 1,
    }
    const s = chatReducer(sent(), { type: 'chat-caught-up', session: 1, messages: [], display: [d] })
    expect(s.display).toEqual([d])
    expect(s.messages).toEqual(sent().messages)
  })
})

describe('stopping a reply', () => {
  const userStop = 'The reply was interrupted: stopped by the user'

  it('reads the reason of an interrupted run from the error frame', () => {
    expect(interruptionReason(userStop)).toBe('stopped by the user')
    expect(interruptionReason('The reply was interrupted: Wisp stopped before the reply finished')).toBe(
      'Wisp stopped before the reply finished',
    )
    expect(interruptionReason('model down')).toBeNull()
  })

  it('marks the streaming reply as stopping, then stopped with its partial text when the run ends', () => {
    let s = frame(sent(), 1, { type: 'token', text: 'You said', fullText: 'You said' })
    s = frame(s, 2, { type: 'tool_start', callId: 'k', name: 'n', arguments: {} })
    expect(streamingReply(s)?.key).toBe('l2')
    s = chatReducer(s, { type: 'chat-stopping', session: 1, key: 'l2' })
    expect(reply(s)).toMatchObject({ status: 'streaming', stopping: true })
    expect(chatReducer(s, { type: 'chat-stopping', session: 1, key: 'l2' })).toBe(s)

    s = frame(s, 3, { type: 'error', message: userStop })
    const b = reply(s)
    expect(b).toMatchObject({ status: 'stopped', text: 'You said', stopReason: 'stopped by the user', tools: [{ status: 'interrupted' }] })
    expect(b.stopping).toBeUndefined()
    expect(b.error).toBeUndefined()
    expect(isReplying(s)).toBe(false)
    expect(streamingReply(s)).toBeUndefined()
    expect(retryable(s, 'l2')).toBe(true)
    // A repeat of the frame changes nothing.
    expect(frame(s, 3, { type: 'error', message: userStop })).toBe(s)
  })

  it('ends the stopping state when the reply finishes first or the stop fails', () => {
    let s = chatReducer(sent(), { type: 'chat-stopping', session: 1, key: 'l2' })
    const done = frame(s, 1, { type: 'done', fullText: 'all', agentName: 'W', runId: 'r', messageId: 'm', actionCallbackHistory: [] })
    expect(reply(done)).toMatchObject({ status: 'done', text: 'all' })
    expect(reply(done).stopping).toBeUndefined()

    const failed = frame(s, 1, { type: 'error', message: 'model down' })
    expect(reply(failed)).toMatchObject({ status: 'error', error: 'model down' })
    expect(reply(failed).stopping).toBeUndefined()

    s = chatReducer(s, { type: 'chat-stop-failed', session: 1, key: 'l2' })
    expect(reply(s)).toMatchObject({ status: 'streaming' })
    expect(reply(s).stopping).toBeUndefined()
    expect(chatReducer(s, { type: 'chat-stop-failed', session: 1, key: 'l2' })).toBe(s)
  })

  it('only marks a streaming reply as stopping, and ignores other sessions', () => {
    const s = frame(sent(), 1, { type: 'error', message: 'model down' })
    expect(chatReducer(s, { type: 'chat-stopping', session: 1, key: 'l2' })).toBe(s)
    const other = sent()
    expect(chatReducer(other, { type: 'chat-stopping', session: 2, key: 'l2' })).toBe(other)
  })

  it('retries a stopped reply by removing the exchange, and resuming clears the stop', () => {
    const s = frame(sent(), 1, { type: 'error', message: userStop })
    expect(chatReducer(s, { type: 'chat-retry', session: 1, key: 'l2' }).messages).toEqual([])
    const resumed = reply(chatReducer(s, { type: 'chat-resume', session: 1, key: 'l2', fromStart: false }))
    expect(resumed.status).toBe('streaming')
    expect(resumed.stopReason).toBeUndefined()
  })
})

describe('chatReducer', () => {
  it('drops results of a conversation that is no longer open', () => {
    let s = opened(1)
    s = chatReducer(s, { type: 'chat-open', session: 2, conversationId: 'c2' })
    const late = chatReducer(s, { type: 'chat-loaded', session: 1, messages, display: [] })
    expect(late).toBe(s)
    expect(chatReducer(s, { type: 'chat-loaded', session: 2, messages, display: [] }).messages).toHaveLength(7)
  })

  it('gives a new chat its conversation id once created', () => {
    let s = chatReducer(initialChat, { type: 'chat-open', session: 3, conversationId: null })
    expect(s.loading).toBe(false)
    s = chatReducer(s, { type: 'chat-assigned', session: 3, conversationId: 'c9' })
    expect(s.conversationId).toBe('c9')
    expect(chatReducer(s, { type: 'chat-assigned', session: 3, conversationId: 'other' }).conversationId).toBe('c9')
  })

  it('fails a streaming reply on a network error, and Retry removes the exchange', () => {
    let s = chatReducer(sent(), { type: 'chat-failed', session: 1, key: 'l2', message: 'offline' })
    expect(reply(s)).toMatchObject({ status: 'error', error: 'offline' })
    s = chatReducer(s, { type: 'chat-retry', session: 1, key: 'l2' })
    expect(s.messages).toEqual([])
  })

  it('resumes a reloaded reply from the start, clearing what the replay repeats', () => {
    let s = chatReducer(opened(), { type: 'chat-loaded', session: 1, messages, display: [] })
    s = chatReducer(s, { type: 'chat-resume', session: 1, key: 'a3', fromStart: true })
    s = frame(s, 1, { type: 'thinking', text: 't' }, 'a3')
    s = frame(s, 2, { type: 'token', text: 'so far and more', fullText: 'so far and more' }, 'a3')
    const a3 = s.messages.find((m) => m.key === 'a3')
    expect(a3).toMatchObject({ status: 'streaming', thinking: 't', text: 'so far and more', live: true, lastSeq: 2 })
  })

  it('only lets the last failed reply retry', () => {
    const s = chatReducer(opened(), { type: 'chat-loaded', session: 1, messages: messages.slice(0, 4), display: [] })
    expect(retryable(s, 'a2')).toBe(true)
    const more = chatReducer(opened(), { type: 'chat-loaded', session: 1, messages, display: [] })
    expect(retryable(more, 'a2')).toBe(false)
  })

  it('keeps display messages of the open conversation only', () => {
    const d: DisplayMessage = {
      id: 'd1',
      conversationId: 'c1',
      runId: 'r1',
      messageType: 'tool',
      contentType: 'tool_call',
      content: { callId: 'k', name: 'shell', arguments: { cmd: 'ls' } },
      status: 'executing',
      createdAt: 1,
      updatedAt: 1,
    }
    let s = chatReducer(opened(), { type: 'display-message', message: d })
    s = chatReducer(s, { type: 'display-message', message: { ...d, status: 'completed' } })
    s = chatReducer(s, { type: 'display-message', message: { ...d, id: 'd9', conversationId: 'c2' } })
    expect(s.display).toEqual([{ ...d, status: 'completed' }])
  })
})

describe('extrasByRun', () => {
  it('merges tool calls with their results and collects thinking', () => {
    const base = { conversationId: 'c', messageType: 'tool' as const, createdAt: 1, updatedAt: 1 }
    const extras = extrasByRun([
      { ...base, id: '1', runId: 'r', contentType: 'thinking', content: { text: 'hm ' } },
      { ...base, id: '2', runId: 'r', contentType: 'tool_call', content: { callId: 'k', name: 'shell', arguments: { cmd: 'ls' } }, status: 'completed' },
      { ...base, id: '3', runId: 'r', contentType: 'tool_result', content: { callId: 'k', name: 'shell', result: 'a.txt' }, status: 'completed' },
      { ...base, id: '4', runId: 'r', contentType: 'tool_result', content: { callId: 'j', name: 'web', error: 'offline' } },
      { ...base, id: '5', runId: 'r', contentType: 'thinking', content: { text: 'ok' } },
      { ...base, id: '6', contentType: 'notification', content: { text: 'no run' } },
    ])
    expect(extras.get('r')).toEqual({
      thinking: 'hm ok',
      tools: [
        { callId: 'k', name: 'shell', arguments: { cmd: 'ls' }, status: 'completed', result: 'a.txt' },
        { callId: 'j', name: 'web', arguments: {}, status: 'failed', error: 'offline' },
      ],
    })
    expect(extras.size).toBe(1)
  })

  it('keeps a declined call cancelled after its error result', () => {
    const base = { conversationId: 'c', messageType: 'tool' as const, createdAt: 1, updatedAt: 1, runId: 'r' }
    const extras = extrasByRun([
      { ...base, id: '1', contentType: 'tool_call', content: { callId: 'k', name: 'RUN_SHELL', arguments: {} }, status: 'cancelled' },
      { ...base, id: '2', contentType: 'tool_result', content: { callId: 'k', name: 'RUN_SHELL', error: 'the user declined' } },
      { ...base, id: '3', messageType: 'system' as const, contentType: 'approval', content: { id: 'ap_1', command: 'rm x' } },
    ])
    expect(extras.get('r')?.tools).toEqual([
      { callId: 'k', name: 'RUN_SHELL', arguments: {}, status: 'cancelled', error: 'the user declined' },
    ])
  })
})

describe('app reducer with chat', () => {
  const conv = (id: string, updatedAt: string) => ({ id, title: id, roomId: '', createdAt: updatedAt, updatedAt, unread: false })

  it('keeps conversations newest first through loads, updates, touches and removals', () => {
    let s = reducer(initialState, {
      type: 'conversations-loaded',
      conversations: [conv('old', '2025-01-01T00:00:00Z'), conv('new', '2025-03-01T00:00:00Z')],
    })
    expect(s.conversations?.map((c) => c.id)).toEqual(['new', 'old'])
    s = reducer(s, { type: 'conversation-upserted', conversation: { ...conv('old', '2025-01-01T00:00:00Z'), title: 'Renamed' } })
    expect(s.conversations?.map((c) => c.title)).toEqual(['new', 'Renamed'])
    s = reducer(s, { type: 'conversation-touched', id: 'old', at: Date.parse('2025-04-01T00:00:00Z') })
    expect(s.conversations?.map((c) => c.id)).toEqual(['old', 'new'])
    s = reducer(s, { type: 'conversation-upserted', conversation: conv('newest', '2025-05-01T00:00:00Z') })
    s = reducer(s, { type: 'conversation-removed', id: 'new' })
    expect(s.conversations?.map((c) => c.id)).toEqual(['newest', 'old'])
  })

  it('shows thinking/replying from heartbeats and clears it when the reply ends', () => {
    const beat = (n: number, status: string, ts = n) => ({
      type: 'envelope' as const,
      envelope: {
        type: 'heartbeat_event' as const,
        version: 1,
        eventId: `evt-${n}`,
        ts,
        payload: { status, conversationId: 'c1', runId: 'r', ts },
      },
    })
    let s = reducer(initialState, { type: 'chat-open', session: 1, conversationId: 'c1' })
    s = reducer(s, beat(1, 'thinking'))
    expect(s.turns.c1?.status).toBe('thinking')
    expect(s.activity).toHaveLength(1)
    s = reducer(s, beat(2, 'replying'))
    expect(s.turns.c1?.status).toBe('replying')
    s = reducer(s, beat(3, 'thinking', 1)) // older, replayed
    expect(s.turns.c1?.status).toBe('replying')
    s = reducer(s, beat(4, 'sent'))
    expect(s.turns.c1).toBeUndefined()

    s = reducer(s, beat(5, 'thinking'))
    s = reducer(s, { type: 'chat-sent', session: 1, userKey: 'u', replyKey: 'a', text: 'x', ts: 1 })
    s = reducer(s, { type: 'chat-frame', session: 1, key: 'a', seq: 1, frame: { type: 'error', message: 'x' } })
    expect(s.turns.c1).toBeUndefined()
  })
})
