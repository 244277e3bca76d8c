// Settings › Memory (docs/memory.md): the Markdown document every turn's
// system prompt carries, edited as text. Shows its size against the bound (and
// will not save over it), Save and Revert, "Saved"; when the memory changes
// elsewhere (the agent's REMEMBER, another window, an undo) the editor shows
// it at once if nothing is edited, else says so and offers to reload; a save
// refused because it changed meanwhile (409) says so, never overwrites. An
// edit outlives closing the settings (the store keeps it). Then
// the history of versions and Undo (MemoryHistory). State: state/memoryStore.ts.

import './MemorySettings.css'
import { useEffect, useId, type KeyboardEvent } from 'react'
import { byteLength, isEdited, isOverLimit, type MemoryState } from '../state/memoryStore'
import type { MemoryStore } from '../state/memoryStore'
import { useMemory, useMemoryStore } from '../state/useMemory'
import { MemoryHistory } from './MemoryHistory'

export function MemorySettings() {
  const store = useMemoryStore()
  const state = useMemory()
  const { memory, loadError } = state
  useEffect(() => {
    void store.open()
  }, [store])
  return (
    <section className="settings-section" aria-labelledby="memory-editor-title" data-testid="memory-section">
      <h3 id="memory-editor-title">What Wisp remembers</h3>
      <p className="hint memory-hint">
        What {memory?.character ? <strong>{memory.character}</strong> : 'Wisp'} remembers across every conversation: a
        Markdown note put in front of every turn. You can edit it; Wisp proposes additions, which you save or discard.
      </p>
      {loadError !== null ? (
        <p className="notice notice-error" role="alert" data-testid="memory-load-error">
          Could not load the memory: {loadError}{' '}
          <button type="button" className="link-button" onClick={() => void store.load()}>
            Try again
          </button>
        </p>
      ) : null}
      {memory === null ? (
        loadError === null ? <p className="empty">Loading…</p> : null
      ) : (
        <>
          <MemoryEditor store={store} state={state} />
          <MemoryHistory store={store} state={state} />
        </>
      )}
    </section>
  )
}

function MemoryEditor({ store, state }: { store: MemoryStore; state: MemoryState }) {
  const id = useId()
  const { memory, draft, saving } = state
  const edited = isEdited(state)
  const over = isOverLimit(state)
  const bytes = byteLength(draft)
  const max = memory?.maxBytes ?? 0
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      // Ctrl+Enter saves the memory (not the settings form around it).
      e.preventDefault()
      void store.save()
    }
  }
  return (
    <div className="memory-editor" data-testid="memory-editor" data-version={memory?.version ?? 0}>
      <label htmlFor={`${id}-text`} className="visually-hidden">
        The memory, in Markdown (Ctrl+Enter saves)
      </label>
      <textarea
        id={`${id}-text`}
        className="memory-text"
        data-testid="memory-text"
        value={draft}
        spellCheck
        aria-invalid={over}
        aria-describedby={`${id}-bytes`}
        disabled={saving}
        onChange={(e) => store.edit(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="memory-bar">
        <span id={`${id}-bytes`} className={`memory-bytes${over ? ' over' : ''}`} data-testid="memory-bytes" data-over={over}>
          {bytes.toLocaleString()} of {max.toLocaleString()} bytes{over ? ': too long to save' : ''}
        </span>
        <MemoryStatus state={state} edited={edited} />
        <div className="form-actions">
          <button type="button" className="secondary" data-testid="memory-revert" disabled={!edited || saving} onClick={store.revert}>
            Revert
          </button>
          <button type="button" data-testid="memory-save-text" disabled={!edited || over || saving} onClick={() => void store.save()}>
            {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      <MemoryNotices store={store} state={state} />
    </div>
  )
}

/** Saved, unsaved, saving: one polite line. */
function MemoryStatus({ state, edited }: { state: MemoryState; edited: boolean }) {
  let text = ''
  if (state.saving) text = 'Saving…'
  else if (edited) text = 'Unsaved changes'
  else if (state.saved) text = 'Saved.'
  return (
    <span className={`settings-status${state.saved && !edited ? ' tone-ok' : ''}`} role="status" data-testid="memory-status">
      {text}
    </span>
  )
}

/** A save refused because the memory changed, a newer memory waiting, or an error. */
function MemoryNotices({ store, state }: { store: MemoryStore; state: MemoryState }) {
  const { conflict, newer, error } = state
  return (
    <>
      {conflict !== null ? (
        <div className="notice notice-error memory-notice" role="alert" data-testid="memory-conflict">
          Not saved: the memory changed elsewhere since you started editing ({conflict}). Copy your text if you want to
          keep it, then{' '}
          <button type="button" className="link-button" data-testid="memory-reload" onClick={() => void store.load()}>
            reload the memory
          </button>
          .
        </div>
      ) : newer !== null ? (
        <div className="notice notice-info memory-notice" role="status" data-testid="memory-newer">
          The memory changed elsewhere while you were editing. Saving now will be refused;{' '}
          <button type="button" className="link-button" data-testid="memory-reload" onClick={store.revert}>
            show the new memory
          </button>{' '}
          (your edit is dropped).
        </div>
      ) : null}
      {error !== null ? (
        <p className="notice notice-error memory-notice" role="alert" data-testid="memory-error">
          {error}
        </p>
      ) : null}
    </>
  )
}
