// Brings the message a search result asked for (state/messageFocus.ts) into
// view once its conversation has loaded: the list stops following the bottom,
// the message is scrolled to the middle and flashes for a moment (its
// data-found attribute, styled in search.css). A message further back than the
// loaded messages cannot be shown: missing then says so.

import { useLayoutEffect, useState } from 'react'
import { useFocusRequest, useMessageFocusStore } from '../state/useMessageFocus'

/** How many of a conversation's last messages it shows (GET /api/conversations/{id}/messages). */
export const MESSAGES_SHOWN = 200

/** How long a found message keeps its mark when no animation ends it (reduced motion). */
const FOUND_MS = 2500

interface Shown {
  /** The message asked for is not among the loaded ones. */
  missing: boolean
}

export function useShowMessage(
  conversationId: string | null,
  loaded: boolean,
  /** The conversation could not be loaded: the request is dropped, not kept for a later visit. */
  failed: boolean,
  rows: { current: HTMLElement | null },
  reveal: (el: HTMLElement) => void,
): Shown {
  const store = useMessageFocusStore()
  const request = useFocusRequest(conversationId)
  const [missing, setMissing] = useState<string | null>(null)

  useLayoutEffect(() => {
    if (request === null) return
    if (failed) {
      store.done(request)
      return
    }
    if (!loaded) return
    store.done(request)
    const row = findRow(rows.current, request.messageId)
    if (row === null) {
      setMissing(request.messageId)
      return
    }
    setMissing(null)
    reveal(row)
    row.setAttribute('data-found', 'true')
    const clear = () => row.removeAttribute('data-found')
    row.addEventListener('animationend', clear, { once: true })
    setTimeout(clear, FOUND_MS)
  }, [request, loaded, failed, store, rows, reveal])

  // Another conversation: the note about this one goes.
  useLayoutEffect(() => setMissing(null), [conversationId])
  return { missing: missing !== null }
}

function findRow(root: HTMLElement | null, messageId: string): HTMLElement | null {
  if (root === null) return null
  for (const el of root.querySelectorAll<HTMLElement>('[data-message-id]')) {
    if (el.getAttribute('data-message-id') === messageId) return el
  }
  return null
}
