// The agent's status (GET /api/status and the /ws status frame). Its
// vocabularies are generated from the Go types (wire.gen.ts); the status itself
// is read leniently (decode.ts): a frame may leave out what an older server did not
// send, and the UI fills it.

import type { AppState, Confinement } from './wire.gen'

export type { AppState as AgentState, Confinement } from './wire.gen'

/** GET /api/status */
export interface AgentStatus {
  state: AppState
  agentName: string
  model: string
  /** openai, anthropic or ollama: the provider in use, "" when none is set up. */
  provider?: string
  canRespond: boolean
  canRespondReason?: string
  startedAt: number
  uptime: number
  pendingRestart: boolean
  pendingRestartReasons: string[]
  /** Why the config file on disk is invalid; absent when it is fine. */
  configError?: string
  /** The autonomy loop is on (docs/proactive.md); false when the server does not say. */
  autonomyEnabled: boolean
  /** How far the agent's commands are confined; absent when the server does not say. */
  confinement?: Confinement
  /** Why, in words for the user. */
  confinementReason?: string
}

/** Status fields a frame may leave out: the first frame after activation omits pendingRestart*. */
type FrameOptionalStatus = 'pendingRestart' | 'pendingRestartReasons' | 'autonomyEnabled'

/** Fields of a status frame. */
export type StatusFields = Omit<AgentStatus, FrameOptionalStatus> & Partial<Pick<AgentStatus, FrameOptionalStatus>>
