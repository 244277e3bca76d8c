// The conversation list of the sidebar: newest updatedAt first.

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
