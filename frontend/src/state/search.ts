// The search palette's state (components/SearchPalette.tsx): what is typed,
// the answer to it, the result the arrow keys are on. Pure: useSearch.ts runs
// the requests. An answer or a failure counts only for the words it was asked
// for, so a slow answer to an older query never replaces a newer one.

import type { SearchResult } from '../api'

/** Fewer characters than this (after trimming) are not searched: a single letter matches most of a history. */
export const MIN_QUERY_CHARS = 2

/** How long typing must pause before a search is sent. */
export const SEARCH_DEBOUNCE_MS = 150

export type SearchStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface SearchState {
  query: string
  status: SearchStatus
  results: SearchResult[]
  /** Asks for more results of the same words; undefined when there are no more. */
  nextCursor: string | undefined
  /** A next page is being fetched (the results so far stay). */
  loadingMore: boolean
  error: string | null
  /** Index of the highlighted result (-1: none). */
  active: number
}

export type SearchAction =
  | { type: 'typed'; query: string }
  | { type: 'answered'; query: string; results: SearchResult[]; nextCursor: string | undefined; more: boolean }
  /** more: it was a next page that failed (the results so far stay, and More can try again). */
  | { type: 'failed'; query: string; message: string; more: boolean }
  | { type: 'loading-more' }
  | { type: 'move'; by: number }
  | { type: 'point'; index: number }

export const initialSearch: SearchState = {
  query: '',
  status: 'idle',
  results: [],
  nextCursor: undefined,
  loadingMore: false,
  error: null,
  active: -1,
}

/** Whether the words typed are searched. */
export function searchable(query: string): boolean {
  return [...query.trim()].length >= MIN_QUERY_CHARS
}

export function searchReducer(s: SearchState, a: SearchAction): SearchState {
  switch (a.type) {
    case 'typed':
      if (a.query === s.query) return s
      // The last words' results stay on screen while the new ones load (no flicker),
      // but nothing of them can be chosen or paged: they answer other words.
      return searchable(a.query)
        ? { ...s, query: a.query, status: 'loading', error: null, loadingMore: false, nextCursor: undefined, active: -1 }
        : { ...initialSearch, query: a.query }
    case 'answered': {
      if (a.query !== s.query) return s
      const results = a.more ? [...s.results, ...a.results] : a.results
      const active = a.more ? s.active : results.length > 0 ? 0 : -1
      return { ...s, status: 'ready', results, nextCursor: a.nextCursor, loadingMore: false, error: null, active }
    }
    case 'failed':
      if (a.query !== s.query) return s
      if (a.more) return { ...s, error: a.message, loadingMore: false }
      return { ...s, status: 'error', error: a.message, loadingMore: false, results: [], nextCursor: undefined, active: -1 }
    case 'loading-more':
      return s.nextCursor === undefined ? s : { ...s, loadingMore: true }
    case 'move': {
      const n = s.results.length
      if (n === 0 || s.status !== 'ready') return s
      return { ...s, active: (((s.active < 0 ? (a.by > 0 ? -1 : 0) : s.active) + a.by) % n + n) % n }
    }
    case 'point':
      return s.status === 'ready' && a.index >= 0 && a.index < s.results.length ? { ...s, active: a.index } : s
  }
}
