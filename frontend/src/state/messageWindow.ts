// The open conversation's loaded messages are a window of its active branch,
// not the whole of it: the newest page when it opens, the page around a
// message a search result asked for, and the pages the list asks for as the
// user scrolls (GET …/messages?before=|after=, docs/chat.md). How a page joins
// the window, and how the window stays bounded (pages far from where the user
// reads are dropped, and fetched again when they are scrolled back to). Pure;
// the reducer (chat.ts) applies it and the controller fetches. It imports
// only the state's types (chat.ts imports it).

import type { DisplayMessage, MessagePage, Summary } from '../api'
import type { ChatMessageView, ChatState } from './chatView'

/** Messages asked for per page. */
export const PAGE_SIZE = 100

/** At most this many messages stay loaded (a page joining drops the far end beyond it). */
export const MAX_LOADED = 3 * PAGE_SIZE

/** Which end of the window a page joins. */
export type PageSide = 'older' | 'newer'

/** What the reducer needs of a page besides its messages. */
export interface PageEnds {
  hasOlder: boolean
  hasNewer: boolean
}

/** The id a page before (older) or after (newer) the window starts from; null: none to fetch. */
export function pageCursor(chat: ChatState, side: PageSide): string | null {
  if (side === 'older') return chat.hasOlder ? (chat.messages[0]?.id ?? null) : null
  return chat.hasNewer ? (chat.messages.findLast((m) => m.id !== null)?.id ?? null) : null
}

/**
 * A page fetched from cursor joins the window on side; it is dropped when the
 * window has moved meanwhile (cursor no longer at that end). Beyond MAX_LOADED
 * the other end is dropped, unless it holds a reply that is still being written
 * (its bubble is driven by the controller).
 */
export function withPage(
  chat: ChatState,
  side: PageSide,
  cursor: string,
  page: Omit<MessagePage, 'messages'>,
  /** The page's messages as bubbles (bubblesFromMessages). */
  bubbles: readonly ChatMessageView[],
): ChatState {
  if (pageCursor(chat, side) !== cursor) return chat
  const have = new Set(chat.messages.map((m) => m.id))
  const fresh = bubbles.filter((b) => !have.has(b.id))
  let messages = side === 'older' ? [...fresh, ...chat.messages] : [...chat.messages, ...fresh]
  let { hasOlder, hasNewer } = chat
  if (side === 'older') hasOlder = page.hasOlder
  else hasNewer = page.hasNewer
  const over = messages.length - MAX_LOADED
  if (over > 0) {
    if (side === 'older') {
      const dropped = messages.slice(messages.length - over)
      if (!dropped.some(busy)) {
        messages = messages.slice(0, messages.length - over)
        hasNewer = true
      }
    } else {
      messages = messages.slice(over)
      hasOlder = true
    }
  }
  const display = displayOfWindow(messages, [...chat.display, ...page.displayMessages])
  const summaries = summariesOfWindow(messages, [...chat.summaries, ...page.summaries])
  return { ...chat, messages, hasOlder, hasNewer, display, summaries }
}

/** A bubble the window must keep: a reply being written, or one not saved yet. */
function busy(b: ChatMessageView): boolean {
  return b.status === 'streaming' || b.id === null
}

/** The display rows of the window's runs, once each (the last copy of a row wins). */
export function displayOfWindow(messages: readonly ChatMessageView[], rows: readonly DisplayMessage[]): DisplayMessage[] {
  const runs = new Set(messages.map((m) => m.runId))
  const byId = new Map<string, DisplayMessage>()
  for (const d of rows) if (runs.has(d.runId)) byId.set(d.id, d)
  return [...byId.values()]
}

/** Display rows that came apart from a page (a catch-up) join the window's, by id. */
export function mergeDisplay(current: readonly DisplayMessage[], rows: readonly DisplayMessage[]): DisplayMessage[] {
  const byId = new Map(current.map((d) => [d.id, d] as const))
  for (const d of rows) byId.set(d.id, d)
  return [...byId.values()]
}

/**
 * The summaries whose row follows a message of the window, once each (the last
 * copy wins), in the order of their messages; undone ones are gone.
 */
export function summariesOfWindow(messages: readonly ChatMessageView[], rows: readonly Summary[]): Summary[] {
  const byId = new Map<string, Summary>()
  for (const s of rows) {
    if (s.status === 'undone') byId.delete(s.id)
    else byId.set(s.id, s)
  }
  const order = new Map(messages.flatMap((m, i) => (m.id === null ? [] : [[m.id, i] as const])))
  return [...byId.values()].filter((s) => order.has(s.throughId)).sort((a, b) => order.get(a.throughId)! - order.get(b.throughId)!)
}

/** A summary made, changed or undone joins the window's (the conversation's own; gone when undone). */
export function withSummary(chat: ChatState, summary: Summary): ChatState {
  if (summary.conversationId !== chat.conversationId) return chat
  const known = chat.summaries.some((s) => s.id === summary.id)
  if (summary.status === 'undone' && !known) return chat
  const rows = summary.status === 'undone' ? chat.summaries.filter((s) => s.id !== summary.id) : [...chat.summaries, summary]
  return { ...chat, summaries: summariesOfWindow(chat.messages, rows) }
}

/** The summaries shown after each message, by message id. */
export function summariesByMessage(summaries: readonly Summary[]): Map<string, Summary[]> {
  const out = new Map<string, Summary[]>()
  for (const s of summaries) out.set(s.throughId, [...(out.get(s.throughId) ?? []), s])
  return out
}
