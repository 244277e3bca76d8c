// Wire types of proactive messages (docs/proactive.md): reminders, the
// autonomy loop's state and the /ws frames that announce what Wisp said on
// its own. What the server sends is generated from the Go types (wire.gen.ts);
// the UI narrows a proactive message to the assistant's and reads an autonomy
// payload as a union by kind. Decoders live in proactiveDecode.ts.

import type * as wire from './wire.gen'

export type { AssistantPayload, AutonomyState, Reminder, ReminderStatus } from './wire.gen'

/** Where a message Wisp sent without being asked came from. */
export const PROACTIVE_SOURCES = ['reminder', 'autonomy', 'terminal'] as const
export type ProactiveSource = (typeof PROACTIVE_SOURCES)[number]

/** The assistant message of a proactive-message frame (source: reminder, autonomy or terminal, kept as sent). */
export type ProactiveMessage = wire.ProactiveMessage & { role: 'assistant' }

/** /ws: Wisp said something on its own in conversationId. */
export interface ProactiveMessageFrame {
  type: 'proactive-message'
  conversationId: string
  message: ProactiveMessage
}

/** POST /api/reminders: exactly one of at (RFC 3339 with a zone) and inMinutes (> 0). */
export type NewReminder = { conversationId?: string; text: string } & (
  | { at: string; inMinutes?: never }
  | { inMinutes: number; at?: never }
)

/** /ws: a reminder was created or delivered. */
export type ReminderUpdatedMessage = wire.ReminderUpdated

/** /ws: a reminder was deleted. */
export type ReminderDeletedMessage = wire.ReminderDeleted

/** The payload of an autonomy tick's agent_event on the autonomy stream (docs/proactive.md). */
export type AutonomyPayload =
  | { kind: 'tick'; tick: number }
  | { kind: 'thought'; text: string }
  | { kind: 'decision'; decision: 'speak' }
  | { kind: 'decision'; decision: 'silent'; reason?: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'error'; message: string }

