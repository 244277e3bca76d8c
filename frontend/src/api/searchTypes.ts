// GET /api/search (docs/search.md): messages of every conversation that match
// the words typed, best first.

import type { MessageRole } from './chatTypes'

/** A stretch of a snippet, [start, end) in UTF-16 code units (string indices). */
export interface SearchHighlight {
  start: number
  end: number
}

export interface SearchResult {
  conversationId: string
  conversationTitle: string
  messageId: string
  role: MessageRole
  /** ms since the epoch */
  createdAt: number
  /** Plain text around the matches (never markup), cut with "…". */
  snippet: string
  /** The matched terms in the snippet, in order, not overlapping. */
  highlights: SearchHighlight[]
}

export interface SearchResults {
  results: SearchResult[]
  /** Asks for the next page; absent on the last one. */
  nextCursor?: string
}

export interface SearchOptions {
  /** 1 to 100; the server's default is 20. */
  limit?: number
  cursor?: string
  /** Aborts the request (a newer keystroke makes this one stale). */
  signal?: AbortSignal
}
