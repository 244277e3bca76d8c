// The emote picker (Ctrl+E / ⌘E or the header's Emotes button): refetches the
// catalog on open, filters, moves with the arrow keys, plays with Enter or a
// click and closes; Esc closes and gives focus back. The logic is in
// state/emotePicker.ts.

import './dialog.css'
import './EmotePicker.css'
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { IDLE_EMOTE_ID, type Emote } from '../api'
import { useApi, useWisp } from '../state/WispProvider'
import { filterEmotes, groupEmotes, moveActive, preferredIndex, shownOrder } from '../state/emotePicker'
import { useEmoteCatalog } from '../state/useEmoteCatalog'
import { trapTab, useRestoreFocus } from './dialogFocus'
import { EmoteOptions, optionDomId } from './EmoteOptions'

interface Props {
  onClose(): void
}

const NAV_KEYS = new Set(['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp'])

export function EmotePicker({ onClose }: Props) {
  const { playEmote } = useWisp()
  const connected = useApi() !== null
  const { catalog, error: loadError, loading, reload } = useEmoteCatalog()
  const [query, setQuery] = useState('')
  const [activeId, setActiveId] = useState<string | null>(null)
  const [playError, setPlayError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  const dialog = useRef<HTMLDivElement>(null)
  const filter = useRef<HTMLInputElement>(null)
  useRestoreFocus()

  const groups = useMemo(() => groupEmotes(filterEmotes(catalog?.emotes ?? [], query)), [catalog, query])
  const options = useMemo(() => shownOrder(groups), [groups])
  const chosen = options.findIndex((e) => e.id === activeId)
  const active = chosen === -1 ? preferredIndex(options, query) : chosen
  const activeEmote = options[active]

  useEffect(() => filter.current?.focus(), [])

  const play = (emoteId: string) => {
    if (!connected || busy) return
    setBusy(true)
    setPlayError(null)
    playEmote(emoteId).then(
      () => onClose(),
      (err: unknown) => {
        setBusy(false)
        setPlayError(err instanceof Error ? err.message : String(err))
      },
    )
  }

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.preventDefault()
      e.stopPropagation()
      onClose()
      return
    }
    if (e.key === 'Tab') {
      trapTab(e, dialog.current)
      return
    }
    const inFilter = e.target === filter.current
    if (NAV_KEYS.has(e.key) || (!inFilter && (e.key === 'Home' || e.key === 'End'))) {
      const next = moveActive(active, e.key, options.length)
      if (next === null) return
      e.preventDefault()
      setActiveId(options[next]?.id ?? null)
      return
    }
    if (e.key === 'Enter' && inFilter && activeEmote !== undefined) {
      e.preventDefault()
      play(activeEmote.id)
    }
  }

  return (
    <div className="picker-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        className="dialog-panel emote-picker"
        role="dialog"
        aria-modal="true"
        aria-label="Emotes"
        data-testid="emote-picker"
        ref={dialog}
        onKeyDown={onKeyDown}
      >
        <div className="picker-head">
          <input
            ref={filter}
            className="picker-filter"
            type="text"
            role="combobox"
            aria-label="Filter emotes"
            aria-expanded="true"
            aria-controls="emote-options"
            aria-autocomplete="list"
            aria-activedescendant={activeEmote === undefined ? undefined : optionDomId(active)}
            placeholder="Filter emotes…"
            autoComplete="off"
            spellCheck={false}
            data-testid="emote-filter"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value)
              setActiveId(null)
            }}
          />
          <button
            type="button"
            className="header-button"
            data-testid="emote-stop"
            title="Return to idle (stops the emote on every window)"
            disabled={!connected || busy}
            onClick={() => play(IDLE_EMOTE_ID)}
          >
            Stop
          </button>
          <button type="button" className="icon-button picker-close" aria-label="Close" onClick={onClose}>
            ×
          </button>
        </div>
        {playError !== null ? (
          <p className="picker-error" role="alert" data-testid="emote-error">
            {playError}
          </p>
        ) : null}
        <PickerBody
          options={options}
          groups={groups}
          active={active}
          hasCatalog={catalog !== null}
          loading={loading}
          loadError={loadError}
          connected={connected}
          query={query}
          disabled={busy}
          onRetry={reload}
          onHover={(e) => setActiveId(e.id)}
          onPick={(e) => play(e.id)}
        />
        <p className="picker-hint">↑ ↓ choose · Enter play · Esc close</p>
      </div>
    </div>
  )
}

interface BodyProps {
  options: Emote[]
  groups: ReturnType<typeof groupEmotes>
  active: number
  hasCatalog: boolean
  loading: boolean
  loadError: string | null
  connected: boolean
  query: string
  disabled: boolean
  onRetry(): void
  onHover(emote: Emote): void
  onPick(emote: Emote): void
}

function PickerBody({ hasCatalog, loading, loadError, connected, query, onRetry, ...list }: BodyProps) {
  if (!connected) return <p className="empty picker-note">Not connected to the Wisp server yet.</p>
  if (loadError !== null && !hasCatalog) {
    return (
      <p className="picker-error" role="alert" data-testid="emote-error">
        Could not load the emotes: {loadError}{' '}
        <button type="button" className="link-button" onClick={onRetry}>
          Try again
        </button>
      </p>
    )
  }
  if (!hasCatalog) return <p className="empty picker-note">{loading ? 'Loading the emotes…' : ''}</p>
  if (list.options.length === 0) {
    return <p className="empty picker-note">{query.trim() === '' ? 'No emotes installed.' : `No emote matches “${query.trim()}”.`}</p>
  }
  return <EmoteOptions {...list} />
}
