// Where each /ws frame goes: one table from frame type to the store method
// (or page event) that takes it. WispProvider's socket hands every frame to
// routeFrame. The table names every frame type this client knows (the
// compiler says when one is missing): null for those the socket itself
// handles (pong, auth-ok); frames of newer servers are ignored.

import { isEnvelope, type KnownServerMessages, type KnownServerMessageType, type ServerMessage } from '../api'
import { faceBus } from '../avatar/faceBus'
import type { WispPage } from './wispPage'

type FrameHandler<K extends KnownServerMessageType> = (page: WispPage, msg: KnownServerMessages[K]) => void

export type FrameTable = { [K in KnownServerMessageType]: FrameHandler<K> | null }

const envelope = (page: WispPage, msg: ServerMessage) => {
  if (isEnvelope(msg)) page.app.dispatch({ type: 'envelope', envelope: msg })
}

export const frameTable: FrameTable = {
  pong: null,
  'auth-ok': null,
  status: (page, { type: _type, ...fields }) => page.app.dispatch({ type: 'status-frame', fields }),
  agent_event: envelope,
  heartbeat_event: envelope,
  training_event: envelope,
  error: (page, msg) => {
    console.warn('wisp ws: server error:', msg.message)
    page.events.errors.emit(msg.message)
  },
  'replay-truncated': (page, msg) => {
    console.warn(`wisp ws: missed events after ${msg.lastEventId} (the server keeps them from ${msg.oldestEventId}); reloading`)
    page.socketResync()
  },
  'terminal-output': (page, msg) => page.events.output.emit(msg),
  emote: (page, msg) => page.events.emotes.emit(msg),
  // Another window showed another branch: the open conversation is read again.
  'conversation-branch': (page, msg) => page.chat.branchMoved(msg.conversationId, msg.leafId),
  // A summary was made, failed or undone (here or in another window): its row and the meter.
  'conversation-summary': (page, msg) => page.summaries.received(msg),
  'conversation-updated': (page, msg) => page.app.dispatch({ type: 'conversation-upserted', conversation: msg.conversation }),
  'display-message-saved': (page, msg) => page.app.dispatch({ type: 'display-message', message: msg.message }),
  'display-message-updated': (page, msg) => page.app.dispatch({ type: 'display-message', message: msg.message }),
  'restart-required': (page, msg) => page.app.dispatch({ type: 'restart-required', reasons: msg.reasons }),
  'config-error': (page, msg) => page.app.dispatch({ type: 'config-error', message: msg.message }),
  'config-changed': (page, msg) => page.events.configChanged.emit(msg.paths),
  'proactive-message': (page, msg) => page.receiveProactive(msg),
  'reminder-updated': (page, msg) => page.app.dispatch({ type: 'reminder-upserted', reminder: msg.reminder }),
  'reminder-deleted': (page, msg) => page.app.dispatch({ type: 'reminder-removed', id: msg.id }),
  'task-updated': (page, msg) => page.tasks.receive(msg.task),
  'task-deleted': (page, msg) => page.tasks.removed(msg.id),
  'approval-requested': (page, msg) => page.receiveApproval(msg.approval),
  'approval-decided': (page, msg) => page.receiveApproval(msg.approval),
  'mcp-servers': (page, msg) => page.mcp.receive(msg.servers),
  'memory-updated': (page, msg) => page.memory.receive(msg.memory),
  // The face of every stage in this window (docs/emotes.md "The face").
  expression: (_page, msg) => faceBus.express({ expression: msg.expression, intensity: msg.intensity, durationMs: msg.durationMs }),
  // Another character was chosen (here or in another window): every stage loads it.
  'avatar-changed': (page, msg) => page.avatar.put(msg.avatar),
}

/** Hands a frame to its handler in the table. */
export function routeFrame(page: WispPage, msg: ServerMessage, table: FrameTable = frameTable): void {
  if (!Object.hasOwn(table, msg.type)) return
  const handler = table[msg.type as KnownServerMessageType] as ((page: WispPage, msg: ServerMessage) => void) | null
  handler?.(page, msg)
}
