// Runtime checks for search answers (searchTypes.ts). A result with a field
// missing or of the wrong type, or a highlight that is not a stretch of its
// snippet, rejects the answer (null) rather than reaching the UI.

import { decodeAll, isNumber, isObject, isString, oneOf } from './guards'
import type { SearchHighlight, SearchResult, SearchResults } from './searchTypes'

const isRole = oneOf(['user', 'assistant'])
const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0

/** Highlights in order, not overlapping, inside a snippet of length `length`. */
function decodeHighlights(v: unknown, length: number): SearchHighlight[] | null {
  if (!Array.isArray(v)) return null
  const out: SearchHighlight[] = []
  let from = 0
  for (const h of v) {
    if (!isObject(h) || !isIndex(h.start) || !isIndex(h.end)) return null
    if (h.start < from || h.end <= h.start || h.end > length) return null
    out.push({ start: h.start, end: h.end })
    from = h.end
  }
  return out
}

export function decodeSearchResult(v: unknown): SearchResult | null {
  if (!isObject(v)) return null
  const { conversationId, conversationTitle, messageId, role, createdAt, snippet } = v
  if (!isString(conversationId) || !isString(conversationTitle) || !isString(messageId)) return null
  if (!isRole(role) || !isNumber(createdAt) || !isString(snippet)) return null
  const highlights = decodeHighlights(v.highlights, snippet.length)
  if (highlights === null) return null
  return { conversationId, conversationTitle, messageId, role, createdAt, snippet, highlights }
}

/** GET /api/search: {results: [...], nextCursor?}. */
export function decodeSearchResults(v: unknown): SearchResults | null {
  if (!isObject(v)) return null
  const results = decodeAll(v.results, decodeSearchResult)
  if (results === null) return null
  if (v.nextCursor === undefined) return { results }
  return isString(v.nextCursor) && v.nextCursor !== '' ? { results, nextCursor: v.nextCursor } : null
}

/** The snippet cut into plain pieces and highlighted ones, for rendering as text. */
export function snippetParts(r: Pick<SearchResult, 'snippet' | 'highlights'>): { text: string; mark: boolean }[] {
  const parts: { text: string; mark: boolean }[] = []
  let at = 0
  for (const h of r.highlights) {
    if (h.start > at) parts.push({ text: r.snippet.slice(at, h.start), mark: false })
    parts.push({ text: r.snippet.slice(h.start, h.end), mark: true })
    at = h.end
  }
  if (at < r.snippet.length) parts.push({ text: r.snippet.slice(at), mark: false })
  return parts
}
