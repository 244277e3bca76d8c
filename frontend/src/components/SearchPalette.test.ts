// The search palette in a (fake) document: typing searches once it pauses,
// a newer search aborts the one before and a late answer never shows, the
// matches are <mark> elements of text (never markup), the arrow keys, Enter and
// Esc, More results, and a refusal shown as an error.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { SearchOptions, SearchResult, SearchResults } from '../api'
import { SEARCH_DEBOUNCE_MS } from '../state/search'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, typeInto } from '../state/fakeEvents.test-util'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

const result = (id: string, snippet = `the kiwi of ${id}`): SearchResult => ({
  conversationId: `conv-${id}`,
  conversationTitle: `Chat ${id}`,
  messageId: id,
  role: 'assistant',
  createdAt: 1763715600000,
  snippet,
  highlights: [{ start: snippet.indexOf('kiwi'), end: snippet.indexOf('kiwi') + 4 }],
})

/** A search whose answers the test gives, request by request. */
class FakeSearch {
  calls: { q: string; opts: SearchOptions; resolve(r: SearchResults): void; reject(e: unknown): void }[] = []
  fn = (q: string, opts: SearchOptions) =>
    new Promise<SearchResults>((resolve, reject) => {
      this.calls.push({ q, opts, resolve, reject })
    })
}

describe('SearchPalette', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let SearchPalette: typeof import('./SearchPalette').SearchPalette
  let search: FakeSearch
  const onChoose = vi.fn<(r: SearchResult) => void>()
  const onClose = vi.fn<() => void>()

  beforeEach(async () => {
    vi.useFakeTimers()
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    SearchPalette = (await import('./SearchPalette')).SearchPalette
    root = createRoot(browser.container as unknown as Element)
    search = new FakeSearch()
    onChoose.mockReset()
    onClose.mockReset()
    await React.act(() =>
      root.render(React.createElement(SearchPalette, { search: search.fn, agentName: 'Wisp', onChoose, onClose })),
    )
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
    vi.useRealTimers()
  })

  const one = (testId: string): FakeElement => {
    const found = browser.container.ownerDocument!.body.byTestId(testId)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }
  const palette = () => one('search-palette')
  const rows = () => browser.document.body.byTestId('search-result')
  const type = (text: string) => React.act(() => typeInto(browser.container, one('search-input'), text))
  const pause = () => React.act(async () => vi.advanceTimersByTime(SEARCH_DEBOUNCE_MS))
  const answer = (i: number, page: SearchResults) => React.act(async () => search.calls[i]!.resolve(page))
  const key = (k: string) => React.act(() => keyDown(browser.container, one('search-input'), k))

  it('says how many characters it needs, and does not search one', async () => {
    await type('k')
    await pause()
    expect(search.calls).toHaveLength(0)
    expect(palette().getAttribute('data-state')).toBe('idle')
    expect(one('search-status').textContent).toContain('at least 2 characters')
    expect(palette().getAttribute('role')).toBe('dialog')
  })

  it('searches once typing pauses, with the words as typed', async () => {
    await type('ki')
    await type('kiw')
    await type('kiwi ')
    expect(search.calls).toHaveLength(0)
    expect(palette().getAttribute('data-state')).toBe('loading')
    await pause()
    expect(search.calls.map((c) => c.q)).toEqual(['kiwi '])
    expect(search.calls[0]?.opts.cursor).toBeUndefined()
  })

  it('aborts the search before a newer one, and never shows its late answer', async () => {
    await type('kiw')
    await pause()
    await type('kiwi')
    expect(search.calls[0]?.opts.signal?.aborted).toBe(true)
    await pause()
    expect(search.calls[1]?.opts.signal?.aborted).toBe(false)
    await answer(1, { results: [result('new')] })
    await answer(0, { results: [result('old')] })
    expect(rows().map((r) => r.getAttribute('data-message-id'))).toEqual(['new'])
  })

  it('marks the matches with <mark> text, and keeps markup in a message as text', async () => {
    await type('kiwi')
    await pause()
    const hostile = result('h', '<img src=x onerror=alert(1)> the kiwi <b>bold</b>')
    await answer(0, { results: [hostile, result('m2')] })
    expect(palette().getAttribute('data-state')).toBe('ready')
    const snippet = rows()[0]!.byTestId('search-snippet')[0]!
    expect(snippet.textContent).toBe(hostile.snippet)
    const marks = snippet.findAll((el) => el.tagName === 'MARK')
    expect(marks.map((m) => m.textContent)).toEqual(['kiwi'])
    expect(browser.document.body.findAll((el) => el.tagName === 'IMG' || el.tagName === 'B')).toHaveLength(0)
    expect(rows()[0]!.textContent).toContain('Chat h')
    expect(rows()[0]!.textContent).toContain('Wisp')
  })

  it('moves with the arrow keys, opens the highlighted result with Enter, closes with Esc', async () => {
    await type('kiwi')
    await pause()
    await answer(0, { results: [result('a'), result('b'), result('c')] })
    const selected = () => rows().map((r) => r.getAttribute('aria-selected'))
    expect(selected()).toEqual(['true', 'false', 'false'])
    await key('ArrowDown')
    await key('ArrowDown')
    expect(selected()).toEqual(['false', 'false', 'true'])
    expect(one('search-input').getAttribute('aria-activedescendant')).toBe('search-result-2')
    await key('ArrowDown')
    expect(selected()).toEqual(['true', 'false', 'false'])
    await key('ArrowUp')
    await key('Enter')
    expect(onChoose).toHaveBeenCalledTimes(1)
    expect(onChoose.mock.calls[0]?.[0].messageId).toBe('c')
    await key('Escape')
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('opens a result on a click', async () => {
    await type('kiwi')
    await pause()
    await answer(0, { results: [result('a'), result('b')] })
    await React.act(() => click(browser.container, rows()[1]!))
    expect(onChoose.mock.calls[0]?.[0].messageId).toBe('b')
  })

  it('fetches more results with the cursor and adds them', async () => {
    await type('kiwi')
    await pause()
    await answer(0, { results: [result('a')], nextCursor: 'cur-1' })
    await React.act(() => click(browser.container, one('search-more')))
    expect(search.calls[1]).toMatchObject({ q: 'kiwi', opts: { cursor: 'cur-1' } })
    await answer(1, { results: [result('b')] })
    expect(rows().map((r) => r.getAttribute('data-message-id'))).toEqual(['a', 'b'])
    expect(browser.document.body.byTestId('search-more')).toHaveLength(0)
  })

  it('says when nothing matches, and shows a refusal', async () => {
    await type('zzz')
    await pause()
    await answer(0, { results: [] })
    expect(one('search-status').textContent).toBe('No messages match.')
    await type('zzzz')
    await pause()
    await React.act(async () => search.calls[1]!.reject(new Error('q is longer than 500 bytes')))
    expect(palette().getAttribute('data-state')).toBe('error')
    expect(one('search-error').textContent).toContain('q is longer than 500 bytes')
  })
})
