// The search palette (Ctrl/⌘+K): type, and the messages of every
// conversation that match show with their matches marked; the arrow keys
// move, Enter or a click opens the conversation at that message, Esc or a
// click outside closes. Searches go out as typing pauses, each aborting the
// one before (state/useSearch.ts).

import './dialog.css'
import { useEffect, useRef, type KeyboardEvent, type RefObject } from 'react'
import type { SearchResult } from '../api'
import { MIN_QUERY_CHARS, type SearchState } from '../state/search'
import { useSearch, type SearchFn } from '../state/useSearch'
import { trapTab, useKeepFocus, useRestoreFocus } from './dialogFocus'
import { resultId, SearchResultItem } from './SearchResultItem'

interface Props {
  /** The API's search (null before the server is known). */
  search: SearchFn | null
  agentName: string
  onChoose(result: SearchResult): void
  onClose(): void
}

const LIST_ID = 'search-results'

export function SearchPalette({ search, agentName, onChoose, onClose }: Props) {
  const { state, type, more, move, point } = useSearch(search)
  const choose = (index: number) => {
    const r = state.results[index]
    if (r !== undefined) onChoose(r)
  }
  const list = useRef<HTMLUListElement>(null)
  const dialog = useRef<HTMLDivElement>(null)
  const input = useRef<HTMLInputElement>(null)
  const composing = useRef(false)
  useActiveInView(list, state.active)
  useRestoreFocus()
  // After useRestoreFocus, so that a remount (React's StrictMode) ends with the input focused.
  useEffect(() => input.current?.focus(), [])
  useKeepFocus(dialog, input)

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    // Keys that confirm or cancel an input method's composition are the IME's (WebKit
    // sends its Enter as keyCode 229, sometimes after compositionend).
    if (e.nativeEvent.isComposing || e.nativeEvent.keyCode === 229) return
    switch (e.key) {
      case 'Tab':
        trapTab(e, dialog.current)
        return
      case 'ArrowDown':
      case 'ArrowUp':
        e.preventDefault()
        move(e.key === 'ArrowDown' ? 1 : -1)
        return
      case 'Enter':
        if (state.status !== 'ready' || state.active < 0) return
        e.preventDefault()
        choose(state.active)
        return
      case 'Escape':
        e.preventDefault()
        e.stopPropagation()
        onClose()
    }
  }

  return (
    <div className="picker-backdrop search-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="dialog-panel search-palette"
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-label="Search all conversations"
        data-testid="search-palette"
        data-state={state.status}
        onKeyDown={onKeyDown}
      >
        <input
          className="search-input"
          data-testid="search-input"
          type="search"
          role="combobox"
          aria-expanded={state.results.length > 0}
          aria-controls={LIST_ID}
          aria-autocomplete="list"
          aria-activedescendant={state.active >= 0 ? resultId(state.active) : undefined}
          ref={input}
          placeholder="Search all conversations"
          spellCheck={false}
          autoComplete="off"
          value={state.query}
          // While an input method composes, the words are not searched yet: only once
          // the composition ends.
          onCompositionStart={() => (composing.current = true)}
          onCompositionEnd={(e) => {
            composing.current = false
            type(e.currentTarget.value)
          }}
          onChange={(e) => type(e.target.value, composing.current)}
        />
        <StatusLine state={state} />
        {state.results.length === 0 ? null : (
          <ul ref={list} id={LIST_ID} role="listbox" aria-label="Matching messages" className="search-results">
            {state.results.map((r, i) => (
              <SearchResultItem
                key={r.messageId}
                result={r}
                index={i}
                active={i === state.active}
                agentName={agentName}
                onPoint={point}
                onChoose={choose}
              />
            ))}
          </ul>
        )}
        {state.nextCursor === undefined ? null : (
          <button
            type="button"
            className="link-button search-more"
            data-testid="search-more"
            disabled={state.loadingMore}
            // The input keeps the focus, so the keys go on working when the button goes.
            onMouseDown={(e) => e.preventDefault()}
            onClick={more}
          >
            {state.loadingMore ? 'Loading…' : 'More results'}
          </button>
        )}
        <p className="search-hint muted">
          <kbd>↑</kbd> <kbd>↓</kbd> to move · <kbd>Enter</kbd> to open · <kbd>Esc</kbd> to close
        </p>
      </div>
    </div>
  )
}

function StatusLine({ state }: { state: SearchState }) {
  let text: string
  switch (state.status) {
    case 'idle':
      text = `Type at least ${MIN_QUERY_CHARS} characters to search every conversation.`
      break
    case 'loading':
      if (state.results.length > 0) return null
      text = 'Searching…'
      break
    case 'error':
      return (
        <p className="search-status notice notice-error" role="alert" data-testid="search-error">
          Search failed: {state.error}
        </p>
      )
    case 'ready':
      if (state.error !== null) {
        return (
          <p className="search-status notice notice-error" role="alert" data-testid="search-error">
            Loading more failed: {state.error}
          </p>
        )
      }
      if (state.results.length > 0) return null
      text = 'No messages match.'
  }
  return (
    <p className="search-status muted" data-testid="search-status" aria-live="polite">
      {text}
    </p>
  )
}

/** Keeps the highlighted result visible as the arrow keys move it. */
function useActiveInView(list: RefObject<HTMLUListElement | null>, active: number): void {
  useEffect(() => {
    const row = active < 0 ? undefined : (list.current?.childNodes[active] as HTMLElement | undefined)
    row?.scrollIntoView?.({ block: 'nearest' })
  }, [list, active])
}
