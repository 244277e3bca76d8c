// Reading the page's MessageFocus (messageFocus.ts) from components.

import { useCallback } from 'react'
import type { FocusRequest, MessageFocus } from './messageFocus'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The page's store. */
export function useMessageFocusStore(): MessageFocus {
  return useWisp().messageFocus
}

/** The request for a message of conversationId, if there is one. */
export function useFocusRequest(conversationId: string | null): FocusRequest | null {
  const select = useCallback(
    (request: FocusRequest | null) => (request !== null && request.conversationId === conversationId ? request : null),
    [conversationId],
  )
  return useStore(useMessageFocusStore(), select)
}
