// Messages Wisp sends on its own (docs/proactive.md) in the open chat: the
// bubble of a proactive-message frame, without repeating one the chat
// already shows, and kept when a reload of the messages raced it. Pure.

import { PROACTIVE_SOURCES, type Message, type ProactiveMessage, type ProactiveSource } from '../api'
import type { ChatMessageView, ChatState } from './chatView'

const SOURCES = new Set<string>(PROACTIVE_SOURCES)

export function isProactiveSource(source: string | undefined): source is ProactiveSource {
  return source !== undefined && SOURCES.has(source)
}

/** The label a bubble of this source carries, or null for an ordinary reply. */
export function sourceLabel(source: string | undefined): string | null {
  switch (source) {
    case 'reminder':
      return 'Reminder'
    case 'autonomy':
      return 'On its own'
    case 'terminal':
      return 'Terminal'
    // A task's run (docs/tasks.md): its scheduled prompt and its result.
    case 'task':
      return 'Scheduled task'
    default:
      return null
  }
}

export function proactiveBubble(m: ProactiveMessage): ChatMessageView {
  const view: ChatMessageView = {
    key: m.id,
    id: m.id,
    role: 'assistant',
    text: m.text,
    status: 'done',
    timestamp: m.timestamp,
    live: false,
    lastSeq: 0,
    thinking: '',
    tools: [],
    source: m.source,
  }
  if (m.late === true) view.late = true
  return view
}

/** A saved message of a proactive source as the frame would have carried it; null for others. */
export function asProactive(m: Message): ProactiveMessage | null {
  if (m.role !== 'assistant' || !isProactiveSource(m.source)) return null
  const out: ProactiveMessage = { id: m.id, role: 'assistant', text: m.text, timestamp: m.timestamp, source: m.source }
  if (m.reminderId !== undefined) out.reminderId = m.reminderId
  if (m.late !== undefined) out.late = m.late
  return out
}

/** Appends the messages the chat does not show yet (by id), oldest first. */
export function withProactive(messages: ChatMessageView[], arrived: readonly ProactiveMessage[]): ChatMessageView[] {
  const shown = new Set(messages.map((m) => m.id))
  const missing = arrived.filter((m) => !shown.has(m.id)).sort((a, b) => a.timestamp - b.timestamp)
  const added = new Set<string>()
  const bubbles: ChatMessageView[] = []
  for (const m of missing) {
    if (added.has(m.id)) continue
    added.add(m.id)
    bubbles.push(proactiveBubble(m))
  }
  return bubbles.length === 0 ? messages : [...messages, ...bubbles]
}

/** A proactive message for the open chat: shown at once, and remembered so a reload that missed it keeps it. */
export function receiveProactive(chat: ChatState, message: ProactiveMessage): ChatState {
  const proactive = chat.proactive.some((m) => m.id === message.id) ? chat.proactive : [...chat.proactive, message]
  const messages = withProactive(chat.messages, [message])
  if (proactive === chat.proactive && messages === chat.messages) return chat
  return { ...chat, proactive, messages }
}
