// App state and its transitions. Pure, so it is tested without React.

import type { AgentStatus, Conversation, ConnectionMode, ConnectionState, StatusFields, StreamEnvelope } from '../api'
import { addActivity, type ActivityEntry } from './activity'
import { chatReducer, initialChat, type ChatAction, type ChatState } from './chat'
import { removeConversation, sortConversations, touchConversation, upsertConversation } from './conversations'
import { applyHeartbeat, endTurn, type Turns } from './turns'

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
  /** Sidebar list, newest first; null until first loaded. */
  conversations: Conversation[] | null
  /** The open conversation (or new chat). */
  chat: ChatState
  /** Turns in progress by conversation id, from heartbeat_event. */
  turns: Turns
  /** The provider form was opened from the header (it also shows whenever the agent cannot respond). */
  providerSetupOpen: boolean
}

export const initialState: AppState = {
  mode: null,
  connection: 'connecting',
  status: null,
  apiReady: false,
  error: null,
  tokenPrompt: 'hidden',
  activity: [],
  conversations: null,
  chat: initialChat,
  turns: {},
  providerSetupOpen: false,
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
  | { type: 'conversations-loaded'; conversations: Conversation[] }
  | { type: 'conversation-upserted'; conversation: Conversation }
  | { type: 'conversation-removed'; id: string }
  | { type: 'conversation-touched'; id: string; at: number }
  | { type: 'provider-setup'; open: boolean }
  | ChatAction

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
      return {
        ...state,
        activity: addActivity(state.activity, action.envelope),
        turns: applyHeartbeat(state.turns, action.envelope),
      }
    case 'conversations-loaded':
      return { ...state, conversations: sortConversations(action.conversations) }
    case 'conversation-upserted':
      return { ...state, conversations: upsertConversation(state.conversations ?? [], action.conversation) }
    case 'conversation-removed':
      return {
        ...state,
        conversations: removeConversation(state.conversations ?? [], action.id),
        turns: endTurn(state.turns, action.id),
      }
    case 'conversation-touched':
      return { ...state, conversations: touchConversation(state.conversations ?? [], action.id, action.at) }
    case 'provider-setup':
      return { ...state, providerSetupOpen: action.open }
    default:
      return chatUpdate(state, action)
  }
}

/** Chat actions; a finished reply or a conversation loaded without one also ends its "thinking…". */
function chatUpdate(state: AppState, action: ChatAction): AppState {
  const chat = chatReducer(state.chat, action)
  if (chat === state.chat) return state
  const id = chat.conversationId
  let turns = state.turns
  if (id !== null) {
    const ended =
      (action.type === 'chat-frame' && (action.frame.type === 'done' || action.frame.type === 'error')) ||
      (action.type === 'chat-loaded' && !chat.messages.some((m) => m.status === 'streaming'))
    if (ended) turns = endTurn(turns, id)
  }
  return { ...state, chat, turns }
}
