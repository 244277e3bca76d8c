// Brings the message a search result asked for (state/messageFocus.ts) into
// view once its conversation has loaded (the controller loads the page around
// it, ChatController.show): the list stops following the bottom, the message
// is drawn and scrolled to the middle (useMessageWindow's reveal) and flashes
// for a moment (its data-found attribute, styled in search.css). A message
// that is not there once loaded (deleted meanwhile) is not shown.

import { useLayoutEffect } from 'react'
import type { ChatState } from '../state/chat'
import type { FocusRequest } from '../state/messageFocus'
import { useMessageFocusStore } from '../state/useMessageFocus'

/** How long a found message keeps its mark when no animation ends it (reduced motion). */
const FOUND_MS = 2500

export function useShowMessage(
  chat: ChatState,
  /** The request for a message of the open conversation (useFocusRequest). */
  request: FocusRequest | null,
  reveal: (key: string, shown: (row: HTMLElement) => void) => void,
): void {
  const store = useMessageFocusStore()
  const { loading, loadError, messages } = chat
  useLayoutEffect(() => {
    if (request === null || loading) return
    store.done(request)
    if (loadError !== null) return
    const bubble = messages.find((m) => m.id === request.messageId)
    if (bubble === undefined) return
    reveal(bubble.key, (row) => {
      row.setAttribute('data-found', 'true')
      const clear = () => row.removeAttribute('data-found')
      row.addEventListener('animationend', clear, { once: true })
      setTimeout(clear, FOUND_MS)
    })
  }, [request, loading, loadError, messages, store, reveal])
}
