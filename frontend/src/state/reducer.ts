// App state and its transitions. Pure, so it is tested without React.

import type { AgentStatus, ConnectionMode, ConnectionState, StatusFields, StreamEnvelope } from '../api'
import { addActivity, type ActivityEntry } from './activity'

export type TokenPrompt = 'hidden' | 'required' | 'rejected'

export interface AppState {
  mode: ConnectionMode | null
  connection: ConnectionState
  status: AgentStatus | null
  /** GET /api/status has succeeded at least once on this page. */
  apiReady: boolean
  /** Last REST error shown to the user (not 401, which opens the token form). */
  error: string | null
  tokenPrompt: TokenPrompt
  activity: ActivityEntry[]
}

export const initialState: AppState = {
  mode: null,
  connection: 'connecting',
  status: null,
  apiReady: false,
  error: null,
  tokenPrompt: 'hidden',
  activity: [],
}

export type Action =
  | { type: 'mode'; mode: ConnectionMode }
  | { type: 'connection'; state: ConnectionState }
  | { type: 'status-loaded'; status: AgentStatus }
  | { type: 'status-frame'; fields: StatusFields }
  | { type: 'error'; message: string }
  | { type: 'token-required' }
  | { type: 'token-rejected' }
  | { type: 'token-submitted' }
  | { type: 'envelope'; envelope: StreamEnvelope }

/** A status frame updates what it carries; the first one lacks pendingRestart*. */
export function mergeStatus(prev: AgentStatus | null, fields: StatusFields): AgentStatus {
  const next: AgentStatus = {
    ...fields,
    pendingRestart: fields.pendingRestart ?? prev?.pendingRestart ?? false,
    pendingRestartReasons: fields.pendingRestartReasons ?? prev?.pendingRestartReasons ?? [],
  }
  if (fields.canRespondReason === undefined) delete next.canRespondReason
  return next
}

export function reducer(state: AppState, action: Action): AppState {
  switch (action.type) {
    case 'mode':
      return { ...state, mode: action.mode }
    case 'connection':
      return { ...state, connection: action.state }
    case 'status-loaded':
      return { ...state, status: action.status, apiReady: true, error: null, tokenPrompt: 'hidden' }
    case 'status-frame':
      return { ...state, status: mergeStatus(state.status, action.fields) }
    case 'error':
      return { ...state, error: action.message }
    case 'token-required':
      return { ...state, tokenPrompt: state.tokenPrompt === 'hidden' ? 'required' : state.tokenPrompt }
    case 'token-rejected':
      return { ...state, tokenPrompt: 'rejected' }
    case 'token-submitted':
      // Check the new token over REST too, even if an older one once worked.
      return { ...state, error: null, apiReady: false }
    case 'envelope':
      return { ...state, activity: addActivity(state.activity, action.envelope) }
  }
}
