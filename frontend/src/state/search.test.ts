import { describe, expect, it } from 'vitest'
import type { SearchResult } from '../api'
import { initialSearch, searchable, searchReducer, type SearchState } from './search'

const hit = (id: string): SearchResult => ({
  conversationId: 'c',
  conversationTitle: 'T',
  messageId: id,
  role: 'user',
  createdAt: 1,
  snippet: 'kiwi',
  highlights: [{ start: 0, end: 4 }],
})

const typed = (query: string, s: SearchState = initialSearch) => searchReducer(s, { type: 'typed', query })
const answered = (s: SearchState, query: string, ids: string[], nextCursor?: string, more = false) =>
  searchReducer(s, { type: 'answered', query, results: ids.map(hit), nextCursor, more })

describe('searchReducer', () => {
  it('searches two characters or more, trimmed', () => {
    expect(searchable('k')).toBe(false)
    expect(searchable(' k ')).toBe(false)
    expect(searchable('ki')).toBe(true)
    expect(searchable('東京')).toBe(true)
    expect(typed('k').status).toBe('idle')
    expect(typed('ki').status).toBe('loading')
  })

  it('takes an answer only for the words it was asked for', () => {
    let s = typed('kiw')
    s = typed('kiwi', s)
    const stale = answered(s, 'kiw', ['old'])
    expect(stale).toBe(s)
    s = answered(s, 'kiwi', ['m1', 'm2'], 'next')
    expect(s.status).toBe('ready')
    expect(s.results.map((r) => r.messageId)).toEqual(['m1', 'm2'])
    expect(s.nextCursor).toBe('next')
    expect(s.active).toBe(0)
    expect(searchReducer(s, { type: 'failed', query: 'kiw', message: 'late', more: false })).toBe(s)
  })

  it('keeps the results while the words change, none of them choosable, and drops them under two characters', () => {
    let s = answered(typed('kiwi'), 'kiwi', ['m1', 'm2'], 'c1')
    s = typed('kiwis', s)
    expect(s.status).toBe('loading')
    expect(s.results).toHaveLength(2)
    expect(s.active).toBe(-1) // Enter opens nothing of the old words
    expect(s.nextCursor).toBeUndefined()
    expect(searchReducer(s, { type: 'move', by: 1 })).toBe(s)
    expect(searchReducer(s, { type: 'point', index: 0 })).toBe(s)
    s = typed('k', s)
    expect(s).toEqual({ ...initialSearch, query: 'k' })
  })

  it('appends a next page and keeps the highlighted row', () => {
    let s = answered(typed('kiwi'), 'kiwi', ['m1', 'm2'], 'c1')
    s = searchReducer(s, { type: 'move', by: 1 })
    s = searchReducer(s, { type: 'loading-more' })
    expect(s.loadingMore).toBe(true)
    s = answered(s, 'kiwi', ['m3'], undefined, true)
    expect(s.results.map((r) => r.messageId)).toEqual(['m1', 'm2', 'm3'])
    expect(s.active).toBe(1)
    expect(s.nextCursor).toBeUndefined()
    expect(s.loadingMore).toBe(false)
    expect(searchReducer(s, { type: 'loading-more' })).toBe(s)
  })

  it('moves the highlight with wrap-around, and points at rows', () => {
    let s = answered(typed('kiwi'), 'kiwi', ['m1', 'm2', 'm3'])
    const at = (st: SearchState) => st.active
    s = searchReducer(s, { type: 'move', by: -1 })
    expect(at(s)).toBe(2)
    s = searchReducer(s, { type: 'move', by: 1 })
    expect(at(s)).toBe(0)
    s = searchReducer(s, { type: 'point', index: 1 })
    expect(at(s)).toBe(1)
    expect(searchReducer(s, { type: 'point', index: 7 })).toBe(s)
    const empty = answered(typed('none'), 'none', [])
    expect(empty.active).toBe(-1)
    expect(searchReducer(empty, { type: 'move', by: 1 })).toBe(empty)
  })

  it('shows a failure for the current words, without the results of other words', () => {
    const before = typed('kiwis', answered(typed('kiwi'), 'kiwi', ['m1']))
    const s = searchReducer(before, { type: 'failed', query: 'kiwis', message: 'q is longer than 500 bytes', more: false })
    expect(s.status).toBe('error')
    expect(s.error).toBe('q is longer than 500 bytes')
    expect(s.results).toEqual([])
    expect(s.active).toBe(-1)
  })

  it('keeps the page when the next one fails, and lets More try again', () => {
    let s = answered(typed('kiwi'), 'kiwi', ['m1'], 'c1')
    s = searchReducer(s, { type: 'loading-more' })
    s = searchReducer(s, { type: 'failed', query: 'kiwi', message: 'timeout', more: true })
    expect(s.status).toBe('ready')
    expect(s.results).toHaveLength(1)
    expect(s.nextCursor).toBe('c1')
    expect(s.loadingMore).toBe(false)
    expect(s.error).toBe('timeout')
    s = answered(searchReducer(s, { type: 'loading-more' }), 'kiwi', ['m2'], undefined, true)
    expect(s.error).toBeNull()
    expect(s.results).toHaveLength(2)
  })
})
