// The open conversation as one branch of its tree (docs/chat.md, Branches):
// what an edit and a regenerate do to the bubbles shown before the server
// answers (the edited message, or the reply asked for again, and everything
// after it give way to the new version, which joins its siblings), and which
// version a bubble's ‹ › buttons lead to. Pure, so it is tested without React;
// the requests are the ChatController's (edit, regenerate, showBranch).

import type { Attachment } from '../api'
import type { ChatMessageView, ChatState } from './chatView'

export type BranchAction =
  /**
   * An edit of the user bubble key (the message editedId) was sent: userKey
   * (the new text) and replyKey (its reply) replace it and what follows.
   */
  | {
      type: 'chat-edit-sent'
      session: number
      key: string
      editedId: string
      userKey: string
      replyKey: string
      text: string
      ts: number
      /** The new version's files (the edited message's when the edit kept them). */
      attachments?: readonly Attachment[]
    }
  /** The reply key is asked for again: replyKey (the new reply) replaces it and what follows. */
  | { type: 'chat-regenerating'; session: number; key: string; replyKey: string; ts: number }
  /**
   * The server named the message an edit or a regenerate made
   * (X-Wisp-Message-Id): the reply replyKey's (of: reply) or its prompt's (of: prompt).
   */
  | { type: 'chat-message-id'; session: number; replyKey: string; of: 'prompt' | 'reply'; messageId: string }

const replying = new WeakMap<readonly ChatMessageView[], boolean>()

/**
 * A reply streams or the conversation loads (or failed to): no edit,
 * regenerate or other version now. Every bubble's buttons ask; the answer is
 * worked out once per list of bubbles.
 */
export function branchesLocked(chat: ChatState): boolean {
  if (chat.loading || chat.loadError !== null) return true
  let streaming = replying.get(chat.messages)
  if (streaming === undefined) {
    streaming = chat.messages.some((m) => m.status === 'streaming')
    replying.set(chat.messages, streaming)
  }
  return streaming
}

/** The versions of a bubble, itself included (only itself when the server told of no other). */
export function versionsOf(b: ChatMessageView): readonly string[] {
  if (b.siblingIds !== undefined && b.siblingIds.length > 0) return b.siblingIds
  return [b.id ?? b.key]
}

/** The id of the version `step` away from the bubble's (-1 the previous, 1 the next), or null at an end. */
export function versionAt(b: ChatMessageView, step: number): string | null {
  const ids = versionsOf(b)
  const here = b.siblingIndex ?? 0
  return ids[here + step] ?? null
}

function bubble(key: string, role: ChatMessageView['role'], text: string, ts: number): ChatMessageView {
  return {
    key,
    id: null,
    role,
    text,
    status: role === 'assistant' ? 'streaming' : 'done',
    timestamp: ts,
    live: role === 'assistant',
    lastSeq: 0,
    thinking: '',
    tools: [],
  }
}

/** A new version of old, by its key: the last of old's versions. */
function besides(old: ChatMessageView, view: ChatMessageView): ChatMessageView {
  const siblingIds = [...versionsOf(old), view.key]
  return { ...view, siblingIds, siblingIndex: siblingIds.length - 1 }
}

function named(b: ChatMessageView, id: string): ChatMessageView {
  const view: ChatMessageView = { ...b, id }
  if (b.siblingIds !== undefined) view.siblingIds = b.siblingIds.map((s) => (s === b.key ? id : s))
  return view
}

export function branchReducer(chat: ChatState, action: BranchAction): ChatState {
  switch (action.type) {
    case 'chat-edit-sent': {
      const i = chat.messages.findIndex((m) => m.key === action.key)
      const old = chat.messages[i]
      if (old?.role !== 'user') return chat
      const user = besides({ ...old, id: action.editedId }, bubble(action.userKey, 'user', action.text, action.ts))
      const reply: ChatMessageView = { ...bubble(action.replyKey, 'assistant', '', action.ts), prompt: action.text }
      const files = action.attachments ?? []
      if (files.length > 0) {
        user.attachments = files
        reply.promptAttachments = files
      }
      return { ...chat, messages: [...chat.messages.slice(0, i), user, reply] }
    }
    case 'chat-regenerating': {
      const i = chat.messages.findIndex((m) => m.key === action.key)
      const old = chat.messages[i]
      if (old?.role !== 'assistant') return chat
      const reply = besides(old, bubble(action.replyKey, 'assistant', '', action.ts))
      if (old.prompt !== undefined) reply.prompt = old.prompt
      if (old.promptAttachments !== undefined) reply.promptAttachments = old.promptAttachments
      return { ...chat, messages: [...chat.messages.slice(0, i), reply] }
    }
    case 'chat-message-id': {
      const j = chat.messages.findIndex((m) => m.key === action.replyKey)
      const i = action.of === 'reply' ? j : j - 1
      const target = j < 0 ? undefined : chat.messages[i]
      if (target === undefined || target.id === action.messageId) return chat
      if (action.of === 'prompt' && target.role !== 'user') return chat
      const messages = chat.messages.slice()
      messages[i] = named(target, action.messageId)
      return { ...chat, messages }
    }
  }
}
