// Wire types for the Wisp HTTP API and the /ws WebSocket, as fixed by the
// backend contract: the /ws frames this client knows, by type. The frames' own
// types are generated from the Go catalog (wire.gen.ts) or come from the area
// modules (chatTypes.ts, approvalTypes.ts, …). Decoders live in decode.ts.
// The chat API's types are in chatTypes.ts.

import type { ApprovalDecidedMessage, ApprovalRequestedMessage } from './approvalTypes'
import type { ConversationSummaryMessage, ConversationUpdatedMessage, DisplayMessageEvent } from './chatTypes'
import type { ConfigChangedMessage, ConfigErrorMessage, RestartRequiredMessage } from './configTypes'
import type { EmoteMessage } from './emoteTypes'
import type { ProactiveMessageFrame, ReminderDeletedMessage, ReminderUpdatedMessage } from './proactiveTypes'
import type { TerminalOutputMessage } from './terminalTypes'
import type { JsonObject } from './json'
import type { McpServersMessage } from './mcpTypes'
import type { MemoryUpdatedMessage } from './memoryTypes'
import type { StatusFields } from './statusTypes'
import type { TaskDeletedMessage, TaskUpdatedMessage } from './taskTypes'
import type { AvatarChanged, ConversationBranch, Expression, ReplayTruncated, TerminalInput, TerminalResize } from './wire.gen'

export type { JsonObject } from './json'
export type { AgentState, AgentStatus, Confinement, StatusFields } from './statusTypes'

export type AgentStream = 'system' | 'autonomy' | 'assistant' | 'action' | 'terminal' | 'chat'
export type AgentEventKind = 'agent' | 'heartbeat'

export interface PublishResult {
  ok: true
  eventId: string
}

export interface OkResult {
  ok: boolean
}

export type EnvelopeType = 'agent_event' | 'heartbeat_event' | 'training_event'

/** A buffered, numbered event; replayed after reconnects from lastEventId. */
export interface StreamEnvelope<T extends EnvelopeType = EnvelopeType> {
  type: T
  version: number
  eventId: string
  ts: number
  runId?: string
  seq?: number
  stream?: string
  sessionKey?: string
  agentId?: string
  roomId?: string
  payload: JsonObject
}

export type StatusMessage = { type: 'status' } & StatusFields

/** Server → client frames this client understands. */
export interface KnownServerMessages {
  status: StatusMessage
  agent_event: StreamEnvelope<'agent_event'>
  heartbeat_event: StreamEnvelope<'heartbeat_event'>
  training_event: StreamEnvelope<'training_event'>
  pong: { type: 'pong' }
  'auth-ok': { type: 'auth-ok' }
  error: { type: 'error'; message: string }
  'conversation-updated': ConversationUpdatedMessage
  'conversation-branch': ConversationBranch
  'conversation-summary': ConversationSummaryMessage
  'display-message-saved': DisplayMessageEvent<'display-message-saved'>
  'display-message-updated': DisplayMessageEvent<'display-message-updated'>
  'terminal-output': TerminalOutputMessage
  emote: EmoteMessage
  'restart-required': RestartRequiredMessage
  'config-error': ConfigErrorMessage
  'config-changed': ConfigChangedMessage
  'proactive-message': ProactiveMessageFrame
  'reminder-updated': ReminderUpdatedMessage
  'reminder-deleted': ReminderDeletedMessage
  'task-updated': TaskUpdatedMessage
  'task-deleted': TaskDeletedMessage
  'replay-truncated': ReplayTruncatedMessage
  'approval-requested': ApprovalRequestedMessage
  'approval-decided': ApprovalDecidedMessage
  'mcp-servers': McpServersMessage
  'memory-updated': MemoryUpdatedMessage
  expression: Expression
  'avatar-changed': AvatarChanged
}

/**
 * Sent on connect when the lastEventId this client asked to resume after is
 * older than the server's replay window (oldestEventId is the oldest it still
 * holds): events were missed, so the client reloads what it shows.
 */
export type ReplayTruncatedMessage = ReplayTruncated

export type KnownServerMessageType = keyof KnownServerMessages

/** Any other frame: passed through untouched. */
export interface OtherServerMessage {
  type: string
  [key: string]: unknown
}

export type ServerMessage = KnownServerMessages[KnownServerMessageType] | OtherServerMessage

/** Client → server frames. auth is sent by WispSocket itself, never queued. */
export type ClientMessage =
  | { type: 'ping' }
  | { type: 'active-conversation'; conversationId: string | null }
  | TerminalInputMessage
  | TerminalResizeMessage

/** Every frame type this client sends: ClientMessage's, and auth (sent by WispSocket itself). */
const CLIENT_MESSAGES: Record<ClientMessage['type'] | 'auth', true> = {
  auth: true,
  ping: true,
  'active-conversation': true,
  'terminal-input': true,
  'terminal-resize': true,
}
export const CLIENT_MESSAGE_TYPES = Object.keys(CLIENT_MESSAGES) as (keyof typeof CLIENT_MESSAGES)[]

/** Keystrokes for a run this tab started (docs/terminal.md). */
export type TerminalInputMessage = TerminalInput

export type TerminalResizeMessage = TerminalResize

export interface ConnectionInfo {
  baseURL: string
  wsURL: string
  token: string
  /** The terminal token (X-Terminal-Token); the desktop window gets it from GetConnection() when configured. */
  terminalToken?: string
}
