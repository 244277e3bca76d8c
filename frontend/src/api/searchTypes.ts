// GET /api/search (docs/search.md): messages of every conversation that match
// the words typed, best first. The answer's types are generated from the Go types
// (wire.gen.ts): a SearchResult's highlights are [start, end) in UTF-16 code units
// (string indices), and nextCursor is absent on the last page.

export type { Highlight as SearchHighlight, SearchResult, SearchResults } from './wire.gen'

export interface SearchOptions {
  /** 1 to 100; the server's default is 20. */
  limit?: number
  cursor?: string
  /** Aborts the request (a newer keystroke makes this one stale). */
  signal?: AbortSignal
}
