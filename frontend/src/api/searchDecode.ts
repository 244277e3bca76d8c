// Checks of search answers beyond their shape (wire.gen.ts checks that): a
// highlight that is not a stretch of its snippet, in order, rejects the answer
// (null) rather than reaching the UI.

import { decodeOrNull, decodeSearchResult as decodeResult, decodeSearchResults as decodeResults } from './wire.gen'
import type { SearchResult, SearchResults } from './searchTypes'

/** The highlights are in order, not overlapping, whole indices inside the snippet. */
function highlightsFit(r: SearchResult): boolean {
  let from = 0
  for (const h of r.highlights) {
    if (!Number.isInteger(h.start) || !Number.isInteger(h.end)) return false
    if (h.start < from || h.end <= h.start || h.end > r.snippet.length) return false
    from = h.end
  }
  return true
}

export function decodeSearchResult(v: unknown): SearchResult | null {
  const r = decodeOrNull(decodeResult, v)
  return r !== null && highlightsFit(r) ? r : null
}

/** GET /api/search: {results: [...], nextCursor?}. */
export function decodeSearchResults(v: unknown): SearchResults | null {
  const page = decodeOrNull(decodeResults, v)
  return page !== null && page.results.every(highlightsFit) ? page : null
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
