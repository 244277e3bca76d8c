// Search over all history: the button that opens the palette, Ctrl/⌘+K
// (state/shortcuts.ts), and the palette itself, drawn over the whole page.
// Choosing a result opens its conversation and asks the message list to
// show that message (state/messageFocus.ts).

import './search.css'
import { useCallback, useMemo, useState } from 'react'
import { createPortal } from 'react-dom'
import type { SearchResult } from '../api'
import { useMessageFocusStore } from '../state/useMessageFocus'
import { isMacPlatform, keysOf } from '../state/shortcuts'
import { useShortcuts } from '../state/useShortcuts'
import { useApi, useAppState, useWisp } from '../state/WispProvider'
import { Icon } from './Icon'
import { SearchPalette } from './SearchPalette'

export function Search() {
  const page = useWisp()
  const { chat } = page
  const connected = useApi() !== null
  const focus = useMessageFocusStore()
  const [open, setOpen] = useState(false)
  const agentName = useAppState((s) => s.status?.agentName || 'Wisp')
  const keys = useMemo(() => keysOf('search', isMacPlatform()), [])
  useShortcuts({ search: () => setOpen((o) => !o) })
  const close = useCallback(() => setOpen(false), [])
  const choose = useCallback(
    (r: SearchResult) => {
      setOpen(false)
      // The conversation opens (or the open one loads) at the page around the message;
      // the message list then brings it into view.
      chat.show(r.conversationId, r.messageId)
      focus.show(r.conversationId, r.messageId)
    },
    [chat, focus],
  )
  return (
    <>
      <button
        type="button"
        className="search-button"
        data-testid="search-open"
        title={`Search all conversations (${keys})`}
        aria-keyshortcuts="Control+K Meta+K"
        onClick={() => setOpen(true)}
      >
        <Icon name="search" />
        <span>Search</span>
        <kbd>{keys}</kbd>
      </button>
      {open
        ? createPortal(
            <SearchPalette search={connected ? page.search : null} agentName={agentName} onChoose={choose} onClose={close} />,
            document.body,
          )
        : null}
    </>
  )
}
