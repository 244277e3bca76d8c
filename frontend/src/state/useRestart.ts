// The restart banner's actions: restart the agent (and follow the server when
// the restart moved it to another address), put the banner off, and show it
// as soon as the settings API says a restart is needed.

import { useCallback } from 'react'
import { planAfterRestart, type ApiClient, type ConnectionMode } from '../api'
import type { Action } from './reducer'

export interface RestartActions {
  restartAgent(): Promise<void>
  dismissRestart(): void
  restartRequired(reasons: string[]): void
}

export function useRestart(
  api: ApiClient | null,
  endpoint: { mode: ConnectionMode; baseURL: string } | null,
  token: string,
  dispatch: (action: Action) => void,
  refreshStatus: () => Promise<void>,
  reresolve: () => void,
): RestartActions {
  const restartAgent = useCallback(async () => {
    if (api === null || endpoint === null) return
    dispatch({ type: 'restart-started' })
    try {
      const result = await api.restartAgent()
      dispatch({ type: 'restart-done', status: result.status })
      const plan = planAfterRestart(endpoint.mode, endpoint.baseURL, result.connection, window.location, token)
      if (plan.kind === 'navigate') window.location.assign(plan.url)
      else if (plan.kind === 'reresolve') reresolve()
    } catch (err) {
      dispatch({ type: 'restart-failed', message: err instanceof Error ? err.message : String(err) })
      // The badge said "restarting"; show what the server says now.
      await refreshStatus()
    }
  }, [api, endpoint, token, dispatch, refreshStatus, reresolve])

  const dismissRestart = useCallback(() => dispatch({ type: 'restart-dismissed' }), [dispatch])
  const restartRequired = useCallback(
    (reasons: string[]) => dispatch({ type: 'restart-required', reasons }),
    [dispatch],
  )
  return { restartAgent, dismissRestart, restartRequired }
}
