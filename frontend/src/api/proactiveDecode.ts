// Decoders of proactive messages, reminders and the autonomy loop
// (proactiveTypes.ts): the generated checks of wire.gen.ts, null for a value that
// is not its shape, and the UI's readings: a proactive message is the assistant's
// and says where it came from, and an autonomy payload is a union by kind.

import { isNumber, isString } from './guards'
import type {
  AssistantPayload,
  AutonomyPayload,
  AutonomyState,
  ProactiveMessageFrame,
  Reminder,
  ReminderDeletedMessage,
  ReminderUpdatedMessage,
} from './proactiveTypes'
import type { JsonObject } from './json'
import * as wire from './wire.gen'

/** A proactive-message frame (its "type" already checked by the caller or not). */
export function decodeProactiveFrame(v: JsonObject): ProactiveMessageFrame | null {
  const f = wire.decodeOrNull(wire.decodeProactive, v)
  if (f === null || f.message.role !== 'assistant' || f.message.source === '') return null
  return { ...f, message: { ...f.message, role: 'assistant' } }
}

export function decodeReminder(v: unknown): Reminder | null {
  return wire.decodeOrNull(wire.decodeReminder, v)
}

/** {reminders:[...]}: one malformed reminder fails the whole list. */
export function decodeReminderList(v: unknown): Reminder[] | null {
  return wire.decodeOrNull(wire.decodeReminderList, v)?.reminders ?? null
}

export function decodeReminderUpdated(v: JsonObject): ReminderUpdatedMessage | null {
  return wire.decodeOrNull(wire.decodeReminderUpdated, v)
}

export function decodeReminderDeleted(v: JsonObject): ReminderDeletedMessage | null {
  return wire.decodeOrNull(wire.decodeReminderDeleted, v)
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
  return wire.decodeOrNull(wire.decodeAssistantPayload, p)
}

export function decodeAutonomy(v: unknown): AutonomyState | null {
  return wire.decodeOrNull(wire.decodeAutonomyState, v)
}
