import { describe, expect, it } from 'vitest'
import { branchesLocked, branchReducer, versionAt, versionsOf } from './branches'
import { initialChat, type ChatMessageView, type ChatState } from './chat'

const view = (over: Partial<ChatMessageView>): ChatMessageView => ({
  key: over.id ?? 'k',
  id: null,
  role: 'user',
  text: '',
  status: 'done',
  timestamp: 1,
  live: false,
  lastSeq: 0,
  thinking: '',
  tools: [],
  ...over,
})

const chatOf = (messages: ChatMessageView[]): ChatState => ({ ...initialChat, conversationId: 'c1', session: 1, messages })

const q0 = view({ id: 'u0', key: 'u0', text: 'first' })
const a0 = view({ id: 'a0', key: 'a0', role: 'assistant', text: 'answer', prompt: 'first' })
const q1 = view({ id: 'u1', key: 'u1', text: 'second', siblingIds: ['u1', 'u1b'], siblingIndex: 0 })
const a1 = view({ id: 'a1', key: 'a1', role: 'assistant', text: 'two', prompt: 'second', runId: 'r1' })

describe('versions', () => {
  it('are the siblings, or the message alone', () => {
    expect(versionsOf(q1)).toEqual(['u1', 'u1b'])
    expect(versionsOf(q0)).toEqual(['u0'])
    expect(versionsOf(view({ key: 'local-1' }))).toEqual(['local-1'])
  })

  it('lead to the one before or after, none past the ends', () => {
    expect(versionAt(q1, 1)).toBe('u1b')
    expect(versionAt(q1, -1)).toBeNull()
    expect(versionAt({ ...q1, siblingIndex: 1 }, 1)).toBeNull()
    expect(versionAt(q0, 1)).toBeNull()
  })
})

describe('branchReducer', () => {
  it('puts an edit in place of the question and what follows, as its last version', () => {
    const chat = chatOf([q0, a0, q1, a1])
    const next = branchReducer(chat, { type: 'chat-edit-sent', session: 1, key: 'u1', editedId: 'u1', userKey: 'l1', replyKey: 'l2', text: 'better', ts: 9 })
    expect(next.messages.slice(0, 2)).toEqual([q0, a0])
    expect(next.messages[2]).toMatchObject({ key: 'l1', id: null, role: 'user', text: 'better', siblingIds: ['u1', 'u1b', 'l1'], siblingIndex: 2 })
    expect(next.messages[3]).toMatchObject({ key: 'l2', role: 'assistant', status: 'streaming', prompt: 'better', text: '' })
    expect(next.messages).toHaveLength(4)
  })

  it('names the edited question by its id even when this page sent it (known by key until then)', () => {
    const sent = view({ key: 'local-1', text: 'fresh' })
    const next = branchReducer(chatOf([sent]), { type: 'chat-edit-sent', session: 1, key: 'local-1', editedId: 'u9', userKey: 'l1', replyKey: 'l2', text: 'x', ts: 1 })
    expect(next.messages[0]).toMatchObject({ siblingIds: ['u9', 'l1'], siblingIndex: 1 })
  })

  it('puts a regenerated reply in place of the old one, beside it', () => {
    const chat = chatOf([q0, a0, q1, a1])
    const next = branchReducer(chat, { type: 'chat-regenerating', session: 1, key: 'a0', replyKey: 'l3', ts: 9 })
    expect(next.messages).toHaveLength(2)
    expect(next.messages[1]).toMatchObject({ key: 'l3', status: 'streaming', prompt: 'first', siblingIds: ['a0', 'l3'], siblingIndex: 1 })
  })

  it('names the new message once the server says its id (the prompt of an edit, the reply of a regenerate)', () => {
    let chat = branchReducer(chatOf([q0, a0, q1, a1]), { type: 'chat-edit-sent', session: 1, key: 'u1', editedId: 'u1', userKey: 'l1', replyKey: 'l2', text: 'x', ts: 9 })
    chat = branchReducer(chat, { type: 'chat-message-id', session: 1, replyKey: 'l2', of: 'prompt', messageId: 'u1c' })
    expect(chat.messages[2]).toMatchObject({ key: 'l1', id: 'u1c', siblingIds: ['u1', 'u1b', 'u1c'] })
    chat = branchReducer(chat, { type: 'chat-message-id', session: 1, replyKey: 'l2', of: 'reply', messageId: 'a1c' })
    expect(chat.messages[3]).toMatchObject({ key: 'l2', id: 'a1c' })
  })

  it('ignores what no bubble shows, and an edit of a reply', () => {
    const chat = chatOf([q0, a0])
    expect(branchReducer(chat, { type: 'chat-edit-sent', session: 1, key: 'a0', editedId: 'a0', userKey: 'l1', replyKey: 'l2', text: 'x', ts: 1 })).toBe(chat)
    expect(branchReducer(chat, { type: 'chat-regenerating', session: 1, key: 'u0', replyKey: 'l2', ts: 1 })).toBe(chat)
    expect(branchReducer(chat, { type: 'chat-message-id', session: 1, replyKey: 'nope', of: 'reply', messageId: 'x' })).toBe(chat)
  })
})

describe('branchesLocked', () => {
  it('holds while the conversation loads or a reply streams', () => {
    expect(branchesLocked(chatOf([q0, a0]))).toBe(false)
    expect(branchesLocked({ ...chatOf([]), loading: true })).toBe(true)
    expect(branchesLocked(chatOf([q0, { ...a0, status: 'streaming' }]))).toBe(true)
    expect(branchesLocked({ ...chatOf([q0]), loadError: 'gone' })).toBe(true)
  })
})
