// The conversation list of the sidebar: newest updatedAt first, with the
// unread marks of conversations Wisp spoke in on its own (docs/proactive.md).

import type { Conversation } from '../api'

function newestFirst(a: Conversation, b: Conversation): number {
  const ta = Date.parse(a.updatedAt)
  const tb = Date.parse(b.updatedAt)
  if (Number.isNaN(ta) || Number.isNaN(tb) || ta === tb) return 0
  return tb - ta
}

export function sortConversations(list: readonly Conversation[]): Conversation[] {
  // Array.prototype.sort is stable, so equal or unparsable times keep the server's order.
  return [...list].sort(newestFirst)
}

/** Adds conv or replaces the one with its id, then re-sorts. */
export function upsertConversation(list: readonly Conversation[], conv: Conversation): Conversation[] {
  return sortConversations([conv, ...list.filter((c) => c.id !== conv.id)])
}

export function removeConversation(list: readonly Conversation[], id: string): Conversation[] {
  return list.filter((c) => c.id !== id)
}

/** Marks a conversation as just used (a message was sent), which moves it to the top. */
export function touchConversation(list: readonly Conversation[], id: string, at: number): Conversation[] {
  const conv = list.find((c) => c.id === id)
  if (conv === undefined) return list as Conversation[]
  return upsertConversation(list, { ...conv, updatedAt: new Date(at).toISOString() })
}

/**
 * A proactive message arrived in id at `at` (epoch ms): the conversation moves
 * up to then (never back, whichever of this and its conversation-updated
 * comes first) and, unless it is open, becomes unread. An unknown id leaves
 * the list as it is.
 */
export function receiveMessage(list: readonly Conversation[], id: string, at: number, unread: boolean): Conversation[] {
  const conv = list.find((c) => c.id === id)
  if (conv === undefined) return list as Conversation[]
  const was = Date.parse(conv.updatedAt)
  const updatedAt = Number.isNaN(was) || at > was ? new Date(at).toISOString() : conv.updatedAt
  if (updatedAt === conv.updatedAt && (conv.unread || !unread)) return list as Conversation[]
  return upsertConversation(list, { ...conv, updatedAt, unread: conv.unread || unread })
}

/** The conversation was opened: its mark goes at once (the server clears its own copy and says so). */
export function markRead(list: readonly Conversation[], id: string | null): Conversation[] {
  if (id === null || !list.some((c) => c.id === id && c.unread)) return list as Conversation[]
  return list.map((c) => (c.id === id ? { ...c, unread: false } : c))
}
