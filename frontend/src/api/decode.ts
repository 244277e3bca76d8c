// Runtime checks that turn untrusted JSON into the wire types of types.ts.
// A frame that claims a known type but lacks its required fields is rejected
// (null) rather than passed on with a lying type.

import type {
  AgentStatus,
  Confinement,
  EnvelopeType,
  JsonObject,
  KnownServerMessages,
  ServerMessage,
  StatusFields,
  StreamEnvelope,
} from './types'
import { decodeApprovalDecided, decodeApprovalRequested } from './approvalDecode'
import { decodeConversationSummary, decodeConversationUpdated, decodeDisplayMessageEvent } from './chatDecode'
import { decodeTerminalOutput } from './terminalDecode'
import { decodeEmoteMessage } from './emoteDecode'
import { decodeConfigChanged, decodeConfigError, decodeRestartRequired } from './configDecode'
import { decodeProactiveFrame, decodeReminderDeleted, decodeReminderUpdated } from './proactiveDecode'
import { decodeMcpServersFrame } from './mcpDecode'
import { decodeMemoryUpdated } from './memoryDecode'
import { decodeTaskDeleted, decodeTaskUpdated } from './taskDecode'
import { isNumber, isObject, isString, isStringArray, optional } from './guards'
import {
  AppStateValues,
  ConfinementValues,
  decodeAvatarChanged,
  decodeConversationBranch,
  decodeExpression,
  decodeOrNull,
  decodeReplayTruncated,
} from './wire.gen'

const AGENT_STATES = new Set<string>(AppStateValues)

export { isObject }

export function decodeStatusFields(v: unknown): StatusFields | null {
  if (!isObject(v)) return null
  const { state, agentName, model, canRespond, startedAt, uptime } = v
  if (!isString(state) || !AGENT_STATES.has(state)) return null
  if (!isString(agentName) || !isString(model) || typeof canRespond !== 'boolean') return null
  if (!isNumber(startedAt) || !isNumber(uptime)) return null
  const fields: StatusFields = {
    state: state as StatusFields['state'],
    agentName,
    model,
    canRespond,
    startedAt,
    uptime,
  }
  const provider = optional(v.provider, isString)
  if (provider !== undefined) fields.provider = provider
  const reason = optional(v.canRespondReason, isString)
  if (reason !== undefined) fields.canRespondReason = reason
  const configError = optional(v.configError, isString)
  if (configError !== undefined && configError !== '') fields.configError = configError
  if (typeof v.pendingRestart === 'boolean') fields.pendingRestart = v.pendingRestart
  if (isStringArray(v.pendingRestartReasons)) fields.pendingRestartReasons = v.pendingRestartReasons
  if (typeof v.autonomyEnabled === 'boolean') fields.autonomyEnabled = v.autonomyEnabled
  if (isString(v.confinement) && CONFINEMENTS.has(v.confinement)) {
    fields.confinement = v.confinement as Confinement
    const why = optional(v.confinementReason, isString)
    if (why !== undefined) fields.confinementReason = why
  }
  return fields
}

const CONFINEMENTS = new Set<string>(ConfinementValues)

export function decodeStatus(v: unknown): AgentStatus | null {
  const fields = decodeStatusFields(v)
  if (fields === null) return null
  return {
    ...fields,
    pendingRestart: fields.pendingRestart ?? false,
    pendingRestartReasons: fields.pendingRestartReasons ?? [],
    autonomyEnabled: fields.autonomyEnabled ?? false,
  }
}

function decodeEnvelope<T extends StreamEnvelope['type']>(
  type: T,
  v: JsonObject,
): StreamEnvelope<T> | null {
  if (!isString(v.eventId) || !isNumber(v.ts) || !isObject(v.payload)) return null
  const env: StreamEnvelope<T> = {
    type,
    version: isNumber(v.version) ? v.version : 1,
    eventId: v.eventId,
    ts: v.ts,
    payload: v.payload,
  }
  const seq = optional(v.seq, isNumber)
  if (seq !== undefined) env.seq = seq
  for (const key of OPTIONAL_STRING_FIELDS) {
    const value = optional(v[key], isString)
    if (value !== undefined) env[key] = value
  }
  return env
}

const OPTIONAL_STRING_FIELDS = ['runId', 'stream', 'sessionKey', 'agentId', 'roomId'] as const

type Decoders = {
  [K in keyof KnownServerMessages]: (v: JsonObject) => KnownServerMessages[K] | null
}

const decoders: Decoders = {
  status: (v) => {
    const fields = decodeStatusFields(v)
    return fields === null ? null : { type: 'status', ...fields }
  },
  agent_event: (v) => decodeEnvelope('agent_event', v),
  heartbeat_event: (v) => decodeEnvelope('heartbeat_event', v),
  training_event: (v) => decodeEnvelope('training_event', v),
  pong: () => ({ type: 'pong' }),
  'auth-ok': () => ({ type: 'auth-ok' }),
  error: (v) => ({ type: 'error', message: isString(v.message) ? v.message : 'unknown error' }),
  'conversation-updated': decodeConversationUpdated,
  'conversation-branch': (v) => decodeOrNull(decodeConversationBranch, v),
  'conversation-summary': decodeConversationSummary,
  'display-message-saved': (v) => decodeDisplayMessageEvent('display-message-saved', v),
  'display-message-updated': (v) => decodeDisplayMessageEvent('display-message-updated', v),
  'terminal-output': decodeTerminalOutput,
  emote: decodeEmoteMessage,
  'restart-required': decodeRestartRequired,
  'config-error': decodeConfigError,
  'config-changed': decodeConfigChanged,
  'proactive-message': decodeProactiveFrame,
  'reminder-updated': decodeReminderUpdated,
  'reminder-deleted': decodeReminderDeleted,
  'task-updated': decodeTaskUpdated,
  'task-deleted': decodeTaskDeleted,
  'approval-requested': decodeApprovalRequested,
  'approval-decided': decodeApprovalDecided,
  'mcp-servers': decodeMcpServersFrame,
  'memory-updated': decodeMemoryUpdated,
  'replay-truncated': (v) => decodeOrNull(decodeReplayTruncated, v),
  expression: (v) => decodeOrNull(decodeExpression, v),
  'avatar-changed': (v) => decodeOrNull(decodeAvatarChanged, v),
}

/** Every server frame type this client decodes (the server's catalog, checked by wire.golden.test.ts). */
export const KNOWN_SERVER_MESSAGE_TYPES = Object.keys(decoders) as (keyof KnownServerMessages)[]

function isKnownType(t: string): t is keyof KnownServerMessages {
  return Object.prototype.hasOwnProperty.call(decoders, t)
}

/**
 * Parses one text frame. Returns null for frames that are not JSON objects
 * with a string "type", or known types with missing required fields.
 * Unknown types come back as-is so later features can subscribe to them.
 */
export function decodeServerMessage(raw: string): ServerMessage | null {
  let parsed: unknown
  try {
    parsed = JSON.parse(raw)
  } catch {
    return null
  }
  if (!isObject(parsed) || !isString(parsed.type)) return null
  const type = parsed.type
  if (isKnownType(type)) {
    const decode = decoders[type] as (v: JsonObject) => ServerMessage | null
    return decode(parsed)
  }
  return { ...parsed, type }
}

export function isEnvelope(msg: ServerMessage): msg is KnownServerMessages[EnvelopeType] {
  return (
    msg.type === 'agent_event' || msg.type === 'heartbeat_event' || msg.type === 'training_event'
  )
}
