import { describe, expect, it } from 'vitest'
import {
  decodeChatFrame,
  decodeConversationBody,
  decodeConversationList,
  decodeDisplayMessageList,
  decodeMessageList,
  decodeProvider,
  decodeRunBody,
  decodeSendResult,
  decodeTruncate,
  decodeTurnHeartbeat,
} from './chatDecode'
import { decodeServerMessage } from './decode'

const conv = {
  id: 'c1',
  title: 'New Chat',
  roomId: 'r1',
  createdAt: '2025-01-01T00:00:00Z',
  updatedAt: '2025-01-02T00:00:00Z',
  unread: false,
}
const display = {
  id: 'd1',
  conversationId: 'c1',
  runId: 'run-1',
  messageType: 'tool',
  contentType: 'tool_call',
  content: { callId: 'k', name: 'shell', arguments: { cmd: 'ls' } },
  status: 'executing',
  toolCallId: 'k',
  createdAt: 1,
  updatedAt: 2,
}

describe('conversation decoders', () => {
  it('decodes lists and {conversation} bodies', () => {
    expect(decodeConversationList({ conversations: [conv, { ...conv, id: 'c2', metadata: { a: 1 } }] })).toEqual([
      conv,
      { ...conv, id: 'c2', metadata: { a: 1 } },
    ])
    expect(decodeConversationBody({ conversation: conv })).toEqual(conv)
    expect(decodeConversationBody({ conversation: { ...conv, unread: true } })?.unread).toBe(true)
  })

  it('rejects malformed bodies, a list as a whole (wire.gen.test.ts checks every field)', () => {
    expect(decodeConversationList({})).toBeNull()
    expect(decodeConversationList({ conversations: [conv, { ...conv, title: 3 }] })).toBeNull()
    expect(decodeConversationList([conv])).toBeNull()
    expect(decodeConversationBody(conv)).toBeNull()
  })
})

describe('message decoders', () => {
  const user = { id: 'm1', role: 'user', text: 'hi', timestamp: 10, source: 'chat' }
  const assistant = {
    id: 'm2',
    role: 'assistant',
    text: 'hello',
    timestamp: 11,
    runId: 'run-1',
    status: 'failed',
    error: 'boom',
    actionCallbackHistory: ['a', 'b'],
  }

  const tree = (m: object, parentId: string | null, depth: number) => ({ ...m, parentId, siblingIds: [(m as { id: string }).id], siblingIndex: 0, depth })

  it('keeps the optional fields that are sent', () => {
    const list = [tree(user, null, 0), tree(assistant, 'm1', 1)]
    expect(decodeMessageList({ messages: list, hasOlder: false, hasNewer: false, branchLength: 2, displayMessages: [], summaries: [] })).toEqual(list)
  })

  it('keeps the source of a proactive message, and a reminder id and late flag when sent', () => {
    const page = (messages: object[]) => ({ messages, hasOlder: true, hasNewer: false, branchLength: 9, displayMessages: [], summaries: [] })
    const reminder = tree({ id: 'm3', role: 'assistant', text: 'Reminder: stretch', timestamp: 12, source: 'reminder' }, 'm2', 8)
    expect(decodeMessageList(page([reminder]))).toEqual([reminder])
    const late = { ...reminder, reminderId: 'r1', late: true }
    expect(decodeMessageList(page([late]))).toEqual([late])
  })

  it('rejects a list with a bad message', () => {
    const page = (messages: object[]) => ({ messages, hasOlder: false, hasNewer: false, branchLength: 2, displayMessages: [], summaries: [] })
    const ok = tree(user, null, 0)
    expect(decodeMessageList(page([ok]))).toEqual([ok])
    expect(decodeMessageList(page([ok, { ...ok, role: 'system' }]))).toBeNull()
    expect(decodeMessageList(page([{ ...ok, timestamp: '10' }]))).toBeNull()
    expect(decodeMessageList(page([{ ...ok, text: null }]))).toBeNull()
    expect(decodeMessageList(page([{ ...ok, siblingIds: null }]))).toBeNull()
    expect(decodeMessageList({ messages: 'x' })).toBeNull()
  })

  it('decodes send results, runs and truncation', () => {
    expect(decodeSendResult({ text: 't', agentName: 'W', runId: 'r', messageId: 'm', usage: { inputTokens: 1, outputTokens: 2 } })).toEqual({
      text: 't',
      agentName: 'W',
      runId: 'r',
      messageId: 'm',
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 1, completionTokens: 2, totalTokens: 3 },
      actionCallbackHistory: [],
    })
    expect(decodeSendResult({ text: 't' })).toBeNull()
    const run = { id: 'r', conversationId: 'c', userMessageId: 'm', status: 'ended', startedAt: 1, endedAt: 2 }
    expect(decodeRunBody({ run })).toEqual(run)
    expect(decodeRunBody({ run: { ...run, startedAt: 'x' } })).toBeNull()
    expect(decodeRunBody({ run: { id: 'r', status: 'active', startedAt: 1 } })).toEqual({ id: 'r', status: 'active', startedAt: 1 })
    expect(decodeTruncate({ ok: true, deletedCount: 3 })).toEqual({ ok: true, deletedCount: 3 })
    expect(decodeTruncate({ ok: false })).toBeNull()
  })
})

describe('decodeDisplayMessageList', () => {
  it('decodes, skipping elements of kinds it does not know', () => {
    expect(decodeDisplayMessageList({ displayMessages: [display, { ...display, id: 'd2', contentType: 'image' }] })).toEqual([
      display,
    ])
  })

  it('decodes the approval card a paused run saves, and a tool waiting for it', () => {
    const card = { ...display, id: 'd3', messageType: 'system', contentType: 'approval', content: { id: 'ap_1', command: 'rm x' } }
    const waiting = { ...display, id: 'd4', status: 'waiting' }
    expect(decodeDisplayMessageList({ displayMessages: [card, waiting] })).toEqual([card, waiting])
  })

  it('rejects a body that is not the right shape', () => {
    expect(decodeDisplayMessageList({ displayMessages: [display, 'x'] })).toBeNull()
    expect(decodeDisplayMessageList({})).toBeNull()
  })
})

describe('decodeChatFrame', () => {
  it('decodes every frame type', () => {
    expect(decodeChatFrame({ type: 'token', text: 'a', fullText: 'ha' })).toEqual({ type: 'token', text: 'a', fullText: 'ha' })
    expect(decodeChatFrame({ type: 'thinking', text: 'hm' })).toEqual({ type: 'thinking', text: 'hm' })
    expect(decodeChatFrame({ type: 'tool_start', callId: 'k', name: 'n', arguments: { x: 1 } })).toEqual({
      type: 'tool_start',
      callId: 'k',
      name: 'n',
      arguments: { x: 1 },
    })
    expect(decodeChatFrame({ type: 'tool_end', callId: 'k', name: 'n', result: 'ok', error: '' })).toEqual({
      type: 'tool_end',
      callId: 'k',
      name: 'n',
      result: 'ok',
    })
    expect(decodeChatFrame({ type: 'tool_end', callId: 'k', name: 'n', error: 'bad' })).toEqual({
      type: 'tool_end',
      callId: 'k',
      name: 'n',
      error: 'bad',
    })
    expect(
      decodeChatFrame({
        type: 'done',
        fullText: 'x',
        agentName: 'W',
        runId: 'r',
        messageId: 'm',
        actionCallbackHistory: ['s'],
        usage: { inputTokens: 1, outputTokens: 2 },
      }),
    ).toEqual({
      type: 'done',
      fullText: 'x',
      agentName: 'W',
      runId: 'r',
      messageId: 'm',
      actionCallbackHistory: ['s'],
      usage: { inputTokens: 1, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 1, completionTokens: 2, totalTokens: 3 },
    })
    expect(decodeChatFrame({ type: 'error', message: 'no model' })).toEqual({ type: 'error', message: 'no model' })
    // The elizaOS names, when the server sends them, are read as sent.
    const usage = { inputTokens: 1, outputTokens: 2, promptTokens: 5, completionTokens: 6, totalTokens: 11 }
    expect(decodeChatFrame({ type: 'done', fullText: 'x', agentName: 'W', runId: 'r', messageId: 'm', actionCallbackHistory: [], usage })).toMatchObject({ usage })
  })

  it('decodes the delta dialect: token deltas of a segment, callbacks and the reply so far', () => {
    expect(decodeChatFrame({ type: 'token', text: 'lo' })).toEqual({ type: 'token', text: 'lo' })
    expect(decodeChatFrame({ type: 'token', text: ' again', segment: 2 })).toEqual({ type: 'token', text: ' again', segment: 2 })
    expect(decodeChatFrame({ type: 'token', text: 'Waving', segment: 1, callback: true })).toEqual({
      type: 'token',
      text: 'Waving',
      segment: 1,
      callback: true,
    })
    expect(decodeChatFrame({ type: 'reply', segments: ['Hello', 'Waving', ''], fullText: 'Hello\n\nWaving' })).toEqual({
      type: 'reply',
      segments: ['Hello', 'Waving', ''],
      fullText: 'Hello\n\nWaving',
    })
    expect(decodeChatFrame({ type: 'reply', segments: [], fullText: '' })).toEqual({ type: 'reply', segments: [], fullText: '' })
  })

  it('rejects a token whose segment is not an index', () => {
    for (const segment of [-1, 1.5, '1', null, Number.MAX_VALUE]) {
      expect(decodeChatFrame({ type: 'token', text: 'x', segment }), String(segment)).toBeNull()
    }
  })

  it('never drops an error frame, but rejects other malformed or unknown frames', () => {
    expect(decodeChatFrame({ type: 'error' })).toEqual({ type: 'error', message: 'the reply failed' })
    expect(decodeChatFrame({ type: 'token', fullText: 'a' })).toBeNull()
    expect(decodeChatFrame({ type: 'token', text: 'a', fullText: 3 })).toBeNull()
    expect(decodeChatFrame({ type: 'reply', segments: ['a', 1], fullText: 'a' })).toBeNull()
    expect(decodeChatFrame({ type: 'reply', segments: ['a'] })).toBeNull()
    expect(decodeChatFrame({ type: 'done' })).toBeNull()
    expect(decodeChatFrame({ type: 'tool_start', name: 'n' })).toBeNull()
    expect(decodeChatFrame({ type: 'sparkle' })).toBeNull()
    expect(decodeChatFrame('token')).toBeNull()
  })
})

describe('decodeProvider', () => {
  const provider = {
    provider: 'ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    model: 'llama3',
    hasApiKey: false,
    canRespond: false,
    reason: 'model not found',
    ollama: { detected: true, models: ['llama3', 'qwen'] },
  }

  it('decodes and defaults a missing ollama block', () => {
    expect(decodeProvider(provider)).toEqual(provider)
    const { ollama: _o, ...rest } = provider
    expect(decodeProvider({ ...rest, provider: '', reason: '' })).toEqual({
      ...rest,
      provider: '',
      reason: undefined,
      ollama: { detected: false, models: [] },
    })
  })

  it('keeps the settings the environment overrides, and a null model list', () => {
    expect(decodeProvider({ ...provider, envOverrides: ['WISP_MODEL'], ollama: { detected: false, models: null } })).toMatchObject({
      envOverrides: ['WISP_MODEL'],
      ollama: { detected: false, models: [] },
    })
  })

  it('rejects unknown providers and wrong types', () => {
    expect(decodeProvider({ ...provider, provider: 'gemini' })).toBeNull()
    expect(decodeProvider({ ...provider, hasApiKey: 'yes' })).toBeNull()
    expect(decodeProvider({ ...provider, ollama: { detected: true, models: [1] } })).toBeNull()
  })
})

describe('chat frames on /ws', () => {
  it('decodes conversation-updated and display message events', () => {
    expect(decodeServerMessage(JSON.stringify({ type: 'conversation-updated', conversation: conv }))).toEqual({
      type: 'conversation-updated',
      conversation: conv,
    })
    expect(decodeServerMessage(JSON.stringify({ type: 'display-message-saved', conversationId: 'c1', message: display }))).toEqual({
      type: 'display-message-saved',
      conversationId: 'c1',
      message: display,
    })
    expect(decodeServerMessage(JSON.stringify({ type: 'display-message-updated', message: display }))).toMatchObject({
      conversationId: 'c1',
    })
  })

  it('rejects them without their payload', () => {
    expect(decodeServerMessage('{"type":"conversation-updated","conversation":{"id":"x"}}')).toBeNull()
    expect(decodeServerMessage('{"type":"display-message-saved","conversationId":"c1"}')).toBeNull()
  })

  it('reads turn heartbeats and ignores other heartbeats', () => {
    expect(decodeTurnHeartbeat({ status: 'thinking', conversationId: 'c1', runId: 'r', preview: '', durationMs: 5 }, 99)).toEqual({
      status: 'thinking',
      conversationId: 'c1',
      runId: 'r',
      preview: '',
      durationMs: 5,
      ts: 99,
    })
    expect(decodeTurnHeartbeat({ status: 'ok', conversationId: 'c1' }, 1)).toBeNull()
    expect(decodeTurnHeartbeat({ message: 'tick' }, 1)).toBeNull()
  })
})

describe("an action's own events", () => {
  it('decodes custom frames with any data, and refuses ones without a name', () => {
    expect(decodeChatFrame({ type: 'custom', callId: 'k', eventName: 'shell_progress', data: { lastLine: 'ok' } })).toEqual({
      type: 'custom',
      callId: 'k',
      eventName: 'shell_progress',
      data: { lastLine: 'ok' },
    })
    expect(decodeChatFrame({ type: 'custom', callId: 'k', eventName: 'x' })).toEqual({ type: 'custom', callId: 'k', eventName: 'x', data: null })
    for (const bad of [{ type: 'custom', callId: 'k', eventName: '' }, { type: 'custom', eventName: 'x' }, { type: 'custom', callId: 'k', eventName: 7 }]) {
      expect(decodeChatFrame(bad), JSON.stringify(bad)).toBeNull()
    }
  })

  it('decodes state patches whole, keeping null values, and drops a patch with any bad operation', () => {
    const patches = [
      { op: 'add', path: '/shell', value: { status: 'running' } },
      { op: 'replace', path: '/shell/status', value: null },
      { op: 'move', from: '/a', path: '/b' },
      { op: 'remove', path: '/b' },
    ]
    expect(decodeChatFrame({ type: 'state_patch', callId: 'k', patches })).toEqual({ type: 'state_patch', callId: 'k', patches })
    expect(decodeChatFrame({ type: 'state_patch', patches: [] })).toEqual({ type: 'state_patch', patches: [] })
    const bad = [
      { op: 'add', path: '/a' },
      { op: 'copy', path: '/a' },
      { op: 'frob', path: '/a' },
      { op: 'remove', path: 3 },
      'remove',
    ]
    for (const op of bad) {
      expect(decodeChatFrame({ type: 'state_patch', patches: [patches[0], op] }), JSON.stringify(op)).toBeNull()
    }
    expect(decodeChatFrame({ type: 'state_patch', patches: {} })).toBeNull()
    expect(decodeChatFrame({ type: 'state_patch', callId: 1, patches: [] })).toBeNull()
  })

  it('decodes the completion of a step’s reasoning', () => {
    expect(decodeChatFrame({ type: 'thinking', text: '', complete: true })).toEqual({ type: 'thinking', text: '', complete: true })
    expect(decodeChatFrame({ type: 'thinking', text: 'hm', complete: false })).toEqual({ type: 'thinking', text: 'hm' })
  })
})
