// When the UI notifies, and what a notification says (docs/desktop.md,
// "Notifications"). Pure: useNotifications.ts feeds it the /ws frames and
// shows what it decides through the desktop's notifications or the
// browser's.
//
// Notified: a proactive message (a reminder, the autonomy loop, a long
// terminal run that ended: the server says how it ended as a proactive
// message) and an approval waiting for the user. Only while the window is
// hidden or does not have the focus, only with ui.notifications on, and
// never twice for one event: a frame heard again (a replay, a second
// approval-requested for the same approval) is recognised by its id, even
// when the first was not notified because the user was looking.

import type { Approval, ProactiveMessageFrame } from '../api'
import { escapeHidden } from '../hiddenChars'

export interface Notice {
  /** Names the event: "message:<id>" or "approval:<id>". */
  key: string
  title: string
  body: string
  /** The conversation a click on the notification opens. */
  conversationId: string
}

/** Longest body shown; notification centres cut long ones anyway. */
export const MAX_BODY_CHARS = 180

/** How many events are remembered to avoid a second notification. */
const REMEMBERED = 500

export function proactiveNotice(frame: ProactiveMessageFrame, agentName: string): Notice {
  const { message } = frame
  return {
    key: `message:${message.id}`,
    title: proactiveTitle(message.source, agentName),
    body: shortBody(message.text),
    conversationId: frame.conversationId,
  }
}

function proactiveTitle(source: string, agentName: string): string {
  switch (source) {
    case 'reminder':
      return `Reminder from ${agentName}`
    case 'terminal':
      return 'A terminal run ended'
    case 'task':
      return `Scheduled task from ${agentName}`
    default:
      return agentName
  }
}

/**
 * The notice of an approval that waits; null for one already decided or
 * cancelled. What the model or a server wrote is escaped (hiddenChars.ts): a
 * notification shows what the card shows, not what an override makes of it.
 */
export function approvalNotice(approval: Approval, agentName: string): Notice | null {
  if (approval.status !== 'pending') return null
  const what =
    approval.kind === 'mcp'
      ? `${agentName} wants to use ${escapeHidden(`${approval.server}.${approval.tool}`)}`
      : approval.kind === 'memory'
        ? `${agentName} wants to remember: ${escapeHidden(approval.text)}`
        : `${agentName} wants to run: ${escapeHidden(approval.command)}`
  return {
    key: `approval:${approval.id}`,
    title: 'Approval needed',
    body: shortBody(what),
    conversationId: approval.conversationId,
  }
}

/** One line of at most MAX_BODY_CHARS characters. */
export function shortBody(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim()
  const chars = [...line]
  return chars.length <= MAX_BODY_CHARS ? line : `${chars.slice(0, MAX_BODY_CHARS - 1).join('').trimEnd()}…`
}

export interface NotifierEnv {
  /** ui.notifications */
  enabled(): boolean
  /** The window is hidden or does not have the focus. */
  away(): boolean
  show(notice: Notice): void
}

/** Decides which events are notified; remembers the last events it saw. */
export class Notifier {
  private readonly seen = new Set<string>()

  constructor(private readonly env: NotifierEnv) {}

  /** Shows the notice when it should be; true when it did. */
  offer(notice: Notice | null): boolean {
    if (notice === null || this.seen.has(notice.key)) return false
    this.remember(notice.key)
    if (!this.env.enabled() || !this.env.away()) return false
    this.env.show(notice)
    return true
  }

  private remember(key: string): void {
    this.seen.add(key)
    if (this.seen.size <= REMEMBERED) return
    const oldest = this.seen.values().next()
    if (oldest.done !== true) this.seen.delete(oldest.value)
  }
}

/** Whether a page counts as away: hidden, or without the focus. */
export function pageAway(doc: Pick<Document, 'hidden' | 'hasFocus'>): boolean {
  return doc.hidden || !doc.hasFocus()
}
