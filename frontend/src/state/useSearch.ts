// Runs the searches of the palette (search.ts holds its state): a search goes
// out once typing has paused for SEARCH_DEBOUNCE_MS, and each new keystroke
// aborts the request before it (AbortController), so the server stops
// working on words nobody waits for and a late answer never shows.

import { useCallback, useEffect, useMemo, useReducer, useRef } from 'react'
import type { SearchOptions, SearchResults } from '../api'
import { initialSearch, searchable, searchReducer, SEARCH_DEBOUNCE_MS, type SearchState } from './search'

export type SearchFn = (q: string, opts: SearchOptions) => Promise<SearchResults>

export interface SearchControls {
  state: SearchState
  /** The words typed changed; composing (an input method is not done) shows them without searching. */
  type(query: string, composing?: boolean): void
  /** Fetches the next page of the same words. */
  more(): void
  /** Moves the highlighted result by one (or more) with wrap-around. */
  move(by: number): void
  /** Highlights the result under the pointer. */
  point(index: number): void
}

export function useSearch(search: SearchFn | null): SearchControls {
  const [state, dispatch] = useReducer(searchReducer, initialSearch)
  const searchRef = useRef(search)
  const stateRef = useRef(state)
  useEffect(() => {
    searchRef.current = search
    stateRef.current = state
  })
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  const inflight = useRef<AbortController | null>(null)

  const cancel = useCallback(() => {
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = null
    inflight.current?.abort()
    inflight.current = null
  }, [])

  const run = useCallback((query: string, cursor?: string) => {
    const fn = searchRef.current
    const ctrl = new AbortController()
    inflight.current = ctrl
    if (fn === null) {
      dispatch({ type: 'failed', query, message: 'not connected to the Wisp server', more: cursor !== undefined })
      return
    }
    const opts: SearchOptions = { signal: ctrl.signal }
    if (cursor !== undefined) opts.cursor = cursor
    fn(query, opts).then(
      (page) => {
        if (ctrl.signal.aborted) return
        dispatch({ type: 'answered', query, results: page.results, nextCursor: page.nextCursor, more: cursor !== undefined })
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return
        dispatch({ type: 'failed', query, message: err instanceof Error ? err.message : String(err), more: cursor !== undefined })
      },
    )
  }, [])

  useEffect(() => cancel, [cancel])

  const type = useCallback(
    (query: string, composing = false) => {
      cancel()
      dispatch({ type: 'typed', query })
      if (composing || !searchable(query)) return
      timer.current = setTimeout(() => {
        timer.current = null
        run(query)
      }, SEARCH_DEBOUNCE_MS)
    },
    [cancel, run],
  )

  const more = useCallback(() => {
    const s = stateRef.current
    if (s.nextCursor === undefined || s.loadingMore || s.status !== 'ready') return
    dispatch({ type: 'loading-more' })
    run(s.query, s.nextCursor)
  }, [run])

  const move = useCallback((by: number) => dispatch({ type: 'move', by }), [])
  const point = useCallback((index: number) => dispatch({ type: 'point', index }), [])
  return useMemo(() => ({ state, type, more, move, point }), [state, type, more, move, point])
}
