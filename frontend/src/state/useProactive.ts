// Follows what Wisp says on its own (docs/proactive.md): each
// proactive-message frame goes to the reducer (the open chat shows it, any
// other conversation gets its unread mark), a conversation the sidebar does
// not know yet is fetched with the list, and after a /ws reconnect the list
// and the open chat catch up on what was said while the socket was down.

import { useEffect, useLayoutEffect, useRef } from 'react'
import type { ApiClient, ProactiveMessageFrame, Unsubscribe } from '../api'
import { errorMessage } from './chatRunner'
import type { Action, AppState } from './reducer'

type Dispatch = (action: Action) => void

export function useProactive(
  api: ApiClient | null,
  state: AppState,
  dispatch: Dispatch,
  onProactive: (fn: (frame: ProactiveMessageFrame) => void) => Unsubscribe,
): void {
  const stateRef = useRef(state)
  const apiRef = useRef(api)
  useLayoutEffect(() => {
    stateRef.current = state
    apiRef.current = api
  })

  useEffect(
    () =>
      onProactive((frame) => {
        const list = stateRef.current.conversations
        dispatch({ type: 'proactive-message', conversationId: frame.conversationId, message: frame.message })
        // A conversation made for this message (nothing else to route it to): list it.
        if (list !== null && !list.some((c) => c.id === frame.conversationId)) void reloadList(apiRef.current, dispatch)
      }),
    [onProactive, dispatch],
  )

  const connects = useRef(0)
  const connected = state.connection === 'connected'
  useEffect(() => {
    if (!connected) return
    connects.current += 1
    // The first connection loads everything anyway (useChat's loader).
    if (connects.current === 1 || api === null || !stateRef.current.apiReady) return
    void reloadList(api, dispatch)
    const { conversationId, session } = stateRef.current.chat
    if (conversationId === null) return
    api.listMessages(conversationId).then(
      (messages) => dispatch({ type: 'chat-caught-up', session, messages }),
      (err: unknown) => console.warn('wisp: cannot catch up the open chat:', errorMessage(err)),
    )
  }, [connected, api, dispatch])
}

async function reloadList(api: ApiClient | null, dispatch: Dispatch): Promise<void> {
  if (api === null) return
  try {
    dispatch({ type: 'conversations-loaded', conversations: await api.listConversations() })
  } catch (err) {
    console.warn('wisp: cannot reload the conversations:', errorMessage(err))
  }
}
