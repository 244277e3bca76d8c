// Runtime checks for the JSON of proactive messages, reminders and the
// autonomy loop (proactiveTypes.ts). Like decode.ts, a value that lacks a
// required field, or has one of the wrong type, is rejected (null).

import { decodeMessage } from './chatDecode'
import { isBoolean, isNumber, isObject, isString, oneOf, optional } from './guards'
import type {
  AssistantPayload,
  AutonomyPayload,
  AutonomyState,
  ProactiveMessage,
  ProactiveMessageFrame,
  Reminder,
  ReminderDeletedMessage,
  ReminderUpdatedMessage,
} from './proactiveTypes'
import type { JsonObject } from './json'

const isReminderStatus = oneOf(['pending', 'delivered'])
const isId = (v: unknown): v is string => isString(v) && v !== ''
const isTime = (v: unknown): v is string => isString(v) && !Number.isNaN(Date.parse(v))

export function decodeProactiveMessage(v: unknown): ProactiveMessage | null {
  const msg = decodeMessage(v)
  if (msg === null || msg.id === '' || msg.role !== 'assistant') return null
  if (msg.source === undefined || msg.source === '') return null
  const out: ProactiveMessage = { id: msg.id, role: 'assistant', text: msg.text, timestamp: msg.timestamp, source: msg.source }
  if (msg.reminderId !== undefined && msg.reminderId !== '') out.reminderId = msg.reminderId
  if (msg.late !== undefined) out.late = msg.late
  return out
}

/** A proactive-message frame (its "type" already checked by the caller or not). */
export function decodeProactiveFrame(v: JsonObject): ProactiveMessageFrame | null {
  if (!isId(v.conversationId)) return null
  const message = decodeProactiveMessage(v.message)
  return message === null ? null : { type: 'proactive-message', conversationId: v.conversationId, message }
}

export function decodeReminder(v: unknown): Reminder | null {
  if (!isObject(v)) return null
  const { id, text, at, createdAt, status } = v
  if (!isId(id) || !isString(text) || !isTime(at) || !isString(createdAt) || !isReminderStatus(status)) return null
  const conversationId = v.conversationId ?? null
  if (conversationId !== null && !isString(conversationId)) return null
  const reminder: Reminder = {
    id,
    conversationId: conversationId === '' ? null : conversationId,
    text,
    at,
    createdAt,
    status,
    late: v.late === true,
  }
  const deliveredAt = optional(v.deliveredAt, isTime)
  if (deliveredAt !== undefined) reminder.deliveredAt = deliveredAt
  const messageId = optional(v.messageId, isId)
  if (messageId !== undefined) reminder.messageId = messageId
  return reminder
}

/** {reminders:[...]}: one malformed reminder fails the whole list. */
export function decodeReminderList(v: unknown): Reminder[] | null {
  if (!isObject(v) || !Array.isArray(v.reminders)) return null
  const out: Reminder[] = []
  for (const item of v.reminders) {
    const reminder = decodeReminder(item)
    if (reminder === null) return null
    out.push(reminder)
  }
  return out
}

export function decodeReminderUpdated(v: JsonObject): ReminderUpdatedMessage | null {
  const reminder = decodeReminder(v.reminder)
  return reminder === null ? null : { type: 'reminder-updated', reminder }
}

export function decodeReminderDeleted(v: JsonObject): ReminderDeletedMessage | null {
  return isId(v.id) ? { type: 'reminder-deleted', id: v.id } : null
}

/** An autonomy-stream payload; null for a kind this client does not know or a malformed one. */
export function decodeAutonomyPayload(p: JsonObject): AutonomyPayload | null {
  switch (p.kind) {
    case 'tick':
      return isNumber(p.tick) ? { kind: 'tick', tick: p.tick } : null
    case 'thought':
      return isString(p.text) ? { kind: 'thought', text: p.text } : null
    case 'decision':
      if (p.decision === 'speak') return { kind: 'decision', decision: 'speak' }
      if (p.decision !== 'silent') return null
      return isString(p.reason) ? { kind: 'decision', decision: 'silent', reason: p.reason } : { kind: 'decision', decision: 'silent' }
    case 'skipped':
      return isString(p.reason) ? { kind: 'skipped', reason: p.reason } : null
    case 'error':
      return isString(p.message) ? { kind: 'error', message: p.message } : null
    default:
      return null
  }
}

/** An assistant-stream payload; null without text. */
export function decodeAssistantPayload(p: JsonObject): AssistantPayload | null {
  if (!isString(p.text)) return null
  const out: AssistantPayload = { text: p.text }
  if (isString(p.source)) out.source = p.source
  return out
}

/** Epoch milliseconds from a number or an ISO 8601 string; undefined for anything else. */
function epochMs(v: unknown): number | undefined {
  if (isNumber(v)) return v
  if (isString(v)) {
    const ms = Date.parse(v)
    if (!Number.isNaN(ms)) return ms
  }
  return undefined
}

export function decodeAutonomy(v: unknown): AutonomyState | null {
  if (!isObject(v)) return null
  const { enabled, intervalMs, maxPerHour, cooldownMs } = v
  if (!isBoolean(enabled) || !isNumber(intervalMs) || !isNumber(maxPerHour) || !isNumber(cooldownMs)) return null
  const state: AutonomyState = {
    enabled,
    intervalMs,
    maxPerHour,
    cooldownMs,
    sentLastHour: optional(v.sentLastHour, isNumber) ?? 0,
  }
  const last = epochMs(v.lastTickAt)
  if (last !== undefined) state.lastTickAt = last
  const next = epochMs(v.nextTickAt)
  if (next !== undefined) state.nextTickAt = next
  return state
}
