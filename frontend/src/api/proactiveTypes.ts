// Wire types of proactive messages (docs/proactive.md): reminders, the
// autonomy loop's state and the /ws frames that announce what Wisp said on
// its own. Decoders live in proactiveDecode.ts; nothing here has behaviour.

/** Where a message Wisp sent without being asked came from. */
export const PROACTIVE_SOURCES = ['reminder', 'autonomy', 'terminal'] as const
export type ProactiveSource = (typeof PROACTIVE_SOURCES)[number]

/** The assistant message of a proactive-message frame. */
export interface ProactiveMessage {
  id: string
  role: 'assistant'
  text: string
  /** Epoch milliseconds. */
  timestamp: number
  /** reminder, autonomy or terminal (kept as sent, so a newer source still shows). */
  source: string
  /** Reminders only. */
  reminderId?: string
  /** Reminders only: delivered more than a minute after its time. */
  late?: boolean
}

/** /ws: Wisp said something on its own in conversationId. */
export interface ProactiveMessageFrame {
  type: 'proactive-message'
  conversationId: string
  message: ProactiveMessage
}

export type ReminderStatus = 'pending' | 'delivered'

export interface Reminder {
  id: string
  /** null when its conversation was deleted (it still fires, in the active conversation). */
  conversationId: string | null
  text: string
  /** ISO 8601: when it is due. */
  at: string
  /** ISO 8601 */
  createdAt: string
  status: ReminderStatus
  /** Delivered more than a minute after `at` (Wisp was closed, or the machine slept). */
  late: boolean
  /** ISO 8601; delivered reminders only. */
  deliveredAt?: string
  /** The message it became; delivered reminders only. */
  messageId?: string
}

/** POST /api/reminders: exactly one of at (RFC 3339 with a zone) and inMinutes (> 0). */
export type NewReminder = { conversationId?: string; text: string } & (
  | { at: string; inMinutes?: never }
  | { inMinutes: number; at?: never }
)

/** /ws: a reminder was created or delivered. */
export interface ReminderUpdatedMessage {
  type: 'reminder-updated'
  reminder: Reminder
}

/** /ws: a reminder was deleted. */
export interface ReminderDeletedMessage {
  type: 'reminder-deleted'
  id: string
}

/** GET and POST /api/agent/autonomy. */
/** The payload of an autonomy tick's agent_event on the autonomy stream (docs/proactive.md). */
export type AutonomyPayload =
  | { kind: 'tick'; tick: number }
  | { kind: 'thought'; text: string }
  | { kind: 'decision'; decision: 'speak' }
  | { kind: 'decision'; decision: 'silent'; reason?: string }
  | { kind: 'skipped'; reason: string }
  | { kind: 'error'; message: string }

/** The payload of an agent_event on the assistant stream: text Wisp says. */
export interface AssistantPayload {
  text: string
  source?: string
}

export interface AutonomyState {
  enabled: boolean
  /** The interval in effect: the configured one clamped to 5 s – 10 min. */
  intervalMs: number
  maxPerHour: number
  cooldownMs: number
  sentLastHour: number
  /** Epoch milliseconds (the wire may say it as a number or as ISO 8601). */
  lastTickAt?: number
  /** Epoch milliseconds. */
  nextTickAt?: number
}
