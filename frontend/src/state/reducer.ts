// App state and its transitions. Pure, so it is tested without React.

import type {
  AgentStatus,
  Conversation,
  ConnectionMode,
  ConnectionState,
  Reminder,
  StatusFields,
  StreamEnvelope,
} from '../api'
import { addActivity, type ActivityEntry } from './activity'
import { chatReducer, initialChat, type ChatAction, type ChatState } from './chat'
import {
  markRead,
  receiveMessage,
  removeConversation,
  sortConversations,
  touchConversation,
  upsertConversation,
} from './conversations'
import { removeReminder, sortReminders, upsertReminder } from './reminders'
import { applyHeartbeat, endTurn, type Turns } from './turns'

export type TokenPrompt = 'hidden' | 'required' | 'rejected'

/** The restart banner: what the user did with it. Whether a restart is pending is in status. */
export interface RestartState {
  /** POST /api/agent/restart is in flight. */
  restarting: boolean
  /** Why the last restart failed (409: already restarting, or the new settings cannot be applied). */
  error: string | null
  /** The reasons the user answered "Later" to (reasonsKey); the banner stays hidden until they change. */
  dismissed: string | null
}

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
  restart: RestartState
  /** The Reminders panel: pending by time, then recently delivered; null until first loaded. */
  reminders: Reminder[] | null
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
  restart: { restarting: false, error: null, dismissed: null },
  reminders: null,
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
  /** /ws missed events (useResync.ts): the turn marks of heartbeats may be stale. */
  | { type: 'turns-cleared' }
  | ReminderAction
  | RestartAction
  | ChatAction

/** GET /api/reminders and the reminder-updated/-deleted frames (or the answers of create and delete). */
export type ReminderAction =
  | { type: 'reminders-loaded'; reminders: Reminder[] }
  | { type: 'reminder-upserted'; reminder: Reminder }
  | { type: 'reminder-removed'; id: string }

/** The config watcher's /ws frames and the restart banner's steps. */
export type RestartAction =
  | { type: 'restart-required'; reasons: string[] }
  | { type: 'config-error'; message: string }
  | { type: 'restart-dismissed' }
  | { type: 'restart-started' }
  | { type: 'restart-failed'; message: string }
  | { type: 'restart-done'; status: AgentStatus }

/** A status frame updates what it carries; the first one lacks pendingRestart*. */
export function mergeStatus(prev: AgentStatus | null, fields: StatusFields): AgentStatus {
  const next: AgentStatus = {
    ...fields,
    pendingRestart: fields.pendingRestart ?? prev?.pendingRestart ?? false,
    pendingRestartReasons: fields.pendingRestartReasons ?? prev?.pendingRestartReasons ?? [],
    autonomyEnabled: fields.autonomyEnabled ?? prev?.autonomyEnabled ?? false,
  }
  if (fields.canRespondReason === undefined) delete next.canRespondReason
  // A frame without configError says the file is fine (again).
  if (fields.configError === undefined) delete next.configError
  return next
}

/** One string for a list of restart reasons, to notice when they change. */
export function reasonsKey(reasons: string[]): string {
  return JSON.stringify(reasons)
}

/** Whether the restart banner shows: a restart is pending and not put off, or one is running or failed. */
export function restartBannerVisible(state: AppState): boolean {
  const { status, restart } = state
  if (restart.restarting || restart.error !== null) return true
  if (status === null || !status.pendingRestart) return false
  return restart.dismissed !== reasonsKey(status.pendingRestartReasons)
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
      return { ...state, conversations: markRead(sortConversations(action.conversations), state.chat.conversationId) }
    case 'conversation-upserted': {
      // The open conversation is being read: a mark from the server's race with our active-conversation frame does not show.
      const conv = action.conversation
      const seen = conv.unread && conv.id === state.chat.conversationId ? { ...conv, unread: false } : conv
      return { ...state, conversations: upsertConversation(state.conversations ?? [], seen) }
    }
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
    case 'turns-cleared':
      return Object.keys(state.turns).length === 0 ? state : { ...state, turns: {} }
    case 'reminders-loaded':
      return { ...state, reminders: sortReminders(action.reminders) }
    case 'reminder-upserted':
      return { ...state, reminders: upsertReminder(state.reminders ?? [], action.reminder) }
    case 'reminder-removed':
      return state.reminders === null ? state : { ...state, reminders: removeReminder(state.reminders, action.id) }
    case 'proactive-message':
      return proactiveUpdate(state, action)
    default:
      return restartUpdate(state, action)
  }
}

/**
 * A proactive message: the open chat shows it at once; any other conversation
 * becomes unread. Either way it moves to the top (its conversation-updated,
 * before or after this, agrees).
 */
function proactiveUpdate(state: AppState, action: Extract<ChatAction, { type: 'proactive-message' }>): AppState {
  const id = action.conversationId
  const open = state.chat.conversationId === id
  const { conversations: list } = state
  const conversations = list === null ? null : receiveMessage(list, id, action.message.timestamp, !open)
  const next = chatUpdate(state, action)
  return conversations === state.conversations ? next : { ...next, conversations }
}

/** The config watcher's frames and the restart banner. */
function restartUpdate(state: AppState, action: RestartAction | ChatAction): AppState {
  const { status, restart } = state
  switch (action.type) {
    case 'restart-required':
      if (status === null) return state
      return {
        ...state,
        status: { ...status, pendingRestart: action.reasons.length > 0, pendingRestartReasons: action.reasons },
      }
    case 'config-error':
      return status === null ? state : { ...state, status: { ...status, configError: action.message } }
    case 'restart-dismissed':
      return {
        ...state,
        restart: { ...restart, error: null, dismissed: reasonsKey(status?.pendingRestartReasons ?? []) },
      }
    case 'restart-started':
      return {
        ...state,
        status: status === null ? null : { ...status, state: 'restarting' },
        restart: { ...restart, restarting: true, error: null },
      }
    case 'restart-failed':
      return { ...state, restart: { ...restart, restarting: false, error: action.message } }
    case 'restart-done':
      return { ...state, status: action.status, restart: { restarting: false, error: null, dismissed: null } }
    default:
      return chatUpdate(state, action)
  }
}

/** Chat actions; a finished reply or a conversation loaded without one also ends its "thinking…". */
function chatUpdate(prev: AppState, action: ChatAction): AppState {
  // Opening a conversation reads it: its unread mark goes at once.
  const state =
    action.type === 'chat-open' && prev.conversations !== null
      ? { ...prev, conversations: markRead(prev.conversations, action.conversationId) }
      : prev
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
