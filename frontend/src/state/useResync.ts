// Catching up after /ws missed events: when the server says the replay after
// our lastEventId was cut short (replay-truncated), or dropped this client for
// lagging (close 1013), the page reloads from the REST API what it builds
// from /ws events, the way it loads them at start-up: the conversation list,
// the open conversation (messages and display messages), the reminders and
// the status; settings listeners hear that anything may have changed. The
// "thinking…/replying…" marks of heartbeats that may have been missed are
// dropped; the next heartbeat of a turn still going sets its mark again.
// Envelopes missed from the Activity list cannot be fetched again.

import { useEffect, useLayoutEffect, useRef } from 'react'
import type { ApiClient } from '../api'
import type { Action } from './reducer'
import { loadConversations, type ChatActions } from './useChat'
import { loadReminders } from './useReminders'

type Dispatch = (action: Action) => void

export interface ResyncDeps {
  api: ApiClient | null
  /** The API has answered /api/status: the start-up loads have run (or are running). */
  apiReady: boolean
  dispatch: Dispatch
  chat: ChatActions
  refreshStatus(): Promise<void>
  /** Tells settings listeners that any setting may have changed (config-changed with no paths). */
  configMayHaveChanged(): void
  /** Subscribes to the socket's resync requests. */
  onResync(fn: () => void): () => void
}

export function useResync(deps: ResyncDeps): void {
  const ref = useRef(deps)
  useLayoutEffect(() => {
    ref.current = deps
  })
  const { onResync } = deps
  useEffect(
    () =>
      onResync(() => {
        const { api, apiReady, dispatch, chat, refreshStatus, configMayHaveChanged } = ref.current
        // Before the first load there is nothing to reload: start-up loads it all.
        if (api === null || !apiReady) return
        dispatch({ type: 'turns-cleared' })
        void loadConversations(api, dispatch)
        chat.reload()
        void loadReminders(api, dispatch)
        void refreshStatus()
        configMayHaveChanged()
      }),
    [onResync],
  )
}
