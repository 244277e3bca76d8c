// The open conversation: its messages as bubbles, how frames of a streaming
// reply change a bubble, and the display messages (tool calls, thinking)
// saved for past replies. Pure, so it is tested without React.

import type { Attachment, ChatFrame, DisplayMessage, Message, MessagePage, MessageRole, MessageUsage, ProactiveMessage, Summary } from '../api'
import { branchReducer, type BranchAction } from './branches'
import type { BubbleStatus, ChatMessageView, ChatState, ToolView } from './chatView'
import { foldLive, isRepeat, liveOf, upsertTool, withLive, type LiveReply } from './liveReply'
import { mergeDisplay, summariesOfWindow, withPage, withSummary, type PageEnds, type PageSide } from './messageWindow'
import { asProactive, isProactiveSource, receiveProactive, withProactive } from './proactive'

export type { BubbleStatus, ChatMessageView, ChatState, ToolView } from './chatView'

export const initialChat: ChatState = {
  conversationId: null,
  session: 0,
  loading: false,
  loadError: null,
  messages: [],
  display: [],
  summaries: [],
  proactive: [],
  hasOlder: false,
  hasNewer: false,
  windowSeq: 0,
}

export type ChatAction =
  | { type: 'chat-open'; session: number; conversationId: string | null }
  /** page: where the loaded messages sit on the branch (none: the whole of it). */
  | { type: 'chat-loaded'; session: number; messages: Message[]; display: DisplayMessage[]; page?: PageEnds; summaries?: Summary[] }
  /** A page fetched before (older) or after (newer) the message cursor joins the window. */
  | { type: 'chat-page'; session: number; side: PageSide; cursor: string; page: MessagePage }
  /** The open conversation is loaded again around a message (a search result): loading until chat-loaded. */
  | { type: 'chat-jump'; session: number }
  | { type: 'chat-load-failed'; session: number; message: string }
  | { type: 'chat-sent'; session: number; userKey: string; replyKey: string; text: string; ts: number; attachments?: readonly Attachment[] }
  | { type: 'chat-assigned'; session: number; conversationId: string }
  | { type: 'chat-run'; session: number; key: string; runId: string }
  /** live: what the ReplyStore holds for the reply, written into the bubble before the frame. */
  | { type: 'chat-frame'; session: number; key: string; seq: number | null; frame: ChatFrame; live?: LiveReply }
  | { type: 'chat-failed'; session: number; key: string; message: string; live?: LiveReply }
  | { type: 'chat-resume'; session: number; key: string; fromStart: boolean }
  | { type: 'chat-retry'; session: number; key: string }
  | { type: 'chat-stopping'; session: number; key: string }
  | { type: 'chat-stop-failed'; session: number; key: string }
  | { type: 'display-message'; message: DisplayMessage }
  /** A summary of the open conversation began, changed, ended or was undone (its stream, /ws, an answer). */
  | { type: 'chat-summary'; summary: Summary }
  /** What a saved reply of the open conversation cost, read after it ended. */
  | { type: 'chat-usage'; conversationId: string; messageId: string; usage: MessageUsage }
  | { type: 'proactive-message'; conversationId: string; message: ProactiveMessage }
  /** After /ws missed events: what Wisp said on its own meanwhile, and the display messages when reloaded. */
  | { type: 'chat-caught-up'; session: number; messages: Message[]; display?: DisplayMessage[] }
  | BranchAction

const FAILED_TEXT = 'The reply failed.'
/** How the server's error frame for an interrupted run begins (docs/chat.md, SSE). */
const INTERRUPTED_PREFIX = 'The reply was interrupted: '
/** The reason of a run ended by POST /api/runs/{id}/cancel. */
export const USER_STOP_REASON = 'stopped by the user'

/** The reason of an error frame that reports an interrupted run, or null for a real failure. */
export function interruptionReason(message: string): string | null {
  return message.startsWith(INTERRUPTED_PREFIX) ? message.slice(INTERRUPTED_PREFIX.length).trim() : null
}

function stopped(b: ChatMessageView, reason: string | undefined): ChatMessageView {
  const { error: _e, stopping: _s, stopReason: _r, ...rest } = b
  const view: ChatMessageView = { ...rest, status: 'stopped', tools: stopRunningTools(b.tools) }
  if (reason !== undefined && reason !== '') view.stopReason = reason
  return view
}

/** Bubbles for messages loaded from the server. */
export function bubblesFromMessages(messages: readonly Message[]): ChatMessageView[] {
  let prompt: string | undefined
  let promptFiles: readonly Attachment[] | undefined
  return messages.map((m) => {
    const view: ChatMessageView = {
      key: m.id,
      id: m.id,
      role: m.role,
      text: m.text,
      status: 'done',
      timestamp: m.timestamp,
      live: false,
      lastSeq: 0,
      thinking: '',
      tools: [],
    }
    if (m.runId !== undefined) view.runId = m.runId
    if (m.source !== undefined) view.source = m.source
    if (m.late === true) view.late = true
    if (m.usage !== undefined) view.usage = m.usage
    if (m.attachments !== undefined && m.attachments.length > 0) view.attachments = m.attachments
    // (A server from before conversations were trees sends no siblings.)
    if (((m.siblingIds as readonly string[] | undefined)?.length ?? 0) > 1) {
      view.siblingIds = m.siblingIds
      view.siblingIndex = m.siblingIndex
    }
    // Wisp said it on its own: it answers no prompt, so there is nothing to retry.
    if (isProactiveSource(m.source)) return view
    if (m.role === 'user') {
      prompt = m.text
      promptFiles = view.attachments
      return view
    }
    if (prompt !== undefined) view.prompt = prompt
    if (promptFiles !== undefined) view.promptAttachments = promptFiles
    if (m.status === 'active') view.status = 'streaming'
    if (m.status === 'failed') {
      view.status = 'error'
      view.error = m.error || FAILED_TEXT
    }
    if (m.status === 'interrupted') return stopped(view, m.error)
    return view
  })
}

function newBubble(key: string, role: MessageRole, text: string, status: BubbleStatus, ts: number): ChatMessageView {
  return { key, id: null, role, text, status, timestamp: ts, live: role === 'assistant', lastSeq: 0, thinking: '', tools: [] }
}

const isRunning = (t: ToolView) => t.status === 'executing' || t.status === 'pending' || t.status === 'waiting'

function stopRunningTools(tools: ToolView[]): ToolView[] {
  return tools.some(isRunning) ? tools.map((t) => (isRunning(t) ? { ...t, status: 'interrupted' } : t)) : tools
}

/**
 * One frame applied to a reply bubble; repeats (by seq) are ignored. Text,
 * thinking and tools change as in the ReplyStore (liveReply.ts, one fold for
 * both); done and error end the reply.
 */
export function applyFrame(bubble: ChatMessageView, seq: number | null, frame: ChatFrame): ChatMessageView {
  if (isRepeat(bubble.lastSeq, seq, frame)) return bubble
  if (frame.type === 'error') {
    const reason = interruptionReason(frame.message)
    if (reason !== null) return stopped({ ...bubble, live: true, lastSeq: Math.max(bubble.lastSeq, seq ?? 0) }, reason)
  }
  const b: ChatMessageView = { ...withLive(bubble, foldLive(liveOf(bubble), [{ seq, frame }])), live: true }
  switch (frame.type) {
    case 'done':
      b.status = 'done'
      delete b.error
      delete b.stopping
      if (frame.messageId !== '') b.id = frame.messageId
      if (frame.runId !== '') b.runId = frame.runId
      break
    case 'error':
      b.status = 'error'
      b.error = frame.message
      b.tools = stopRunningTools(b.tools)
      delete b.stopping
      break
    default:
      break
  }
  return b
}

/** True while some reply of the open conversation is still streaming. */
export function isReplying(chat: ChatState): boolean {
  return chat.messages.some((m) => m.status === 'streaming')
}

/** The reply that is streaming now (the one Stop stops), if any. */
export function streamingReply(chat: ChatState): ChatMessageView | undefined {
  return chat.messages.findLast((m) => m.role === 'assistant' && m.status === 'streaming')
}

function updateBubble(chat: ChatState, key: string, change: (b: ChatMessageView) => ChatMessageView): ChatState {
  const i = chat.messages.findIndex((m) => m.key === key)
  const current = chat.messages[i]
  if (current === undefined) return chat
  const next = change(current)
  if (next === current) return chat
  const messages = chat.messages.slice()
  messages[i] = next
  return { ...chat, messages }
}

function upsertDisplay(list: DisplayMessage[], msg: DisplayMessage): DisplayMessage[] {
  const i = list.findIndex((d) => d.id === msg.id)
  if (i < 0) return [...list, msg]
  const next = list.slice()
  next[i] = msg
  return next
}

export function chatReducer(chat: ChatState, action: ChatAction): ChatState {
  if (action.type === 'chat-open') {
    const { session, conversationId } = action
    return { ...initialChat, session, conversationId, loading: conversationId !== null, windowSeq: chat.windowSeq + 1 }
  }
  if (action.type === 'display-message') {
    if (action.message.conversationId !== chat.conversationId) return chat
    return { ...chat, display: upsertDisplay(chat.display, action.message) }
  }
  if (action.type === 'chat-summary') return withSummary(chat, action.summary)
  if (action.type === 'chat-usage') {
    if (action.conversationId !== chat.conversationId) return chat
    const i = chat.messages.findIndex((m) => m.id === action.messageId)
    return i < 0 ? chat : updateBubble(chat, chat.messages[i]!.key, (b) => ({ ...b, usage: action.usage }))
  }
  if (action.type === 'proactive-message') {
    if (action.conversationId !== chat.conversationId) return chat
    // The window ends short of the branch's end: the message shows when the list pages there.
    return chat.hasNewer ? chat : receiveProactive(chat, action.message)
  }
  if (action.session !== chat.session) return chat
  switch (action.type) {
    case 'chat-loaded': {
      const page = action.page ?? { hasOlder: false, hasNewer: false }
      const loaded = bubblesFromMessages(action.messages)
      // What Wisp said on its own meanwhile is at the end of the branch: not in a window short of it.
      const messages = page.hasNewer ? loaded : withProactive(loaded, chat.proactive)
      const windowSeq = chat.windowSeq + 1
      const summaries = summariesOfWindow(messages, action.summaries ?? [])
      return { ...chat, loading: false, loadError: null, messages, display: action.display, summaries, ...page, windowSeq }
    }
    case 'chat-page':
      return withPage(chat, action.side, action.cursor, action.page, bubblesFromMessages(action.page.messages))
    case 'chat-jump':
      return { ...chat, loading: true, loadError: null }
    case 'chat-caught-up': {
      // After a reconnect: what Wisp said on its own while the socket was down.
      const missed = action.messages.map(asProactive).filter((m) => m !== null)
      const caught = missed.reduce(receiveProactive, chat)
      return action.display === undefined ? caught : { ...caught, display: mergeDisplay(caught.display, action.display) }
    }
    case 'chat-load-failed':
      return { ...chat, loading: false, loadError: action.message }
    case 'chat-sent': {
      const files = action.attachments ?? []
      const user = newBubble(action.userKey, 'user', action.text, 'done', action.ts)
      const reply: ChatMessageView = { ...newBubble(action.replyKey, 'assistant', '', 'streaming', action.ts), prompt: action.text }
      if (files.length > 0) {
        user.attachments = files
        reply.promptAttachments = files
      }
      return { ...chat, messages: [...chat.messages, user, reply] }
    }
    case 'chat-assigned':
      return chat.conversationId === null ? { ...chat, conversationId: action.conversationId } : chat
    case 'chat-run':
      return updateBubble(chat, action.key, (b) => (b.runId === action.runId ? b : { ...b, runId: action.runId }))
    case 'chat-frame': {
      const { live } = action
      return updateBubble(chat, action.key, (b) => applyFrame(live === undefined ? b : withLive(b, live), action.seq, action.frame))
    }
    case 'chat-failed':
      return updateBubble(chat, action.key, (current) => {
        if (current.status !== 'streaming') return current
        const b = action.live === undefined ? current : withLive(current, action.live)
        const { stopping: _s, ...rest } = b
        return { ...rest, status: 'error', error: action.message, tools: stopRunningTools(b.tools) }
      })
    case 'chat-stopping':
      return updateBubble(chat, action.key, (b) => (b.status === 'streaming' && !b.stopping ? { ...b, stopping: true } : b))
    case 'chat-stop-failed':
      return updateBubble(chat, action.key, (b) => {
        if (!b.stopping) return b
        const { stopping: _s, ...rest } = b
        return rest
      })
    case 'chat-resume':
      return updateBubble(chat, action.key, (b) => {
        const { error: _e, stopReason: _r, stopping: _s, ...rest } = b
        return action.fromStart
          ? { ...rest, status: 'streaming', live: true, lastSeq: 0, thinking: '', tools: [], segments: null }
          : { ...rest, status: 'streaming' }
      })
    case 'chat-retry':
      return { ...chat, messages: withoutExchange(chat.messages, action.key) }
    case 'chat-edit-sent':
    case 'chat-regenerating': {
      // The new branch ends with the new reply: nothing of it after the window.
      const next = branchReducer(chat, action)
      return next === chat ? chat : { ...next, hasNewer: false }
    }
    case 'chat-message-id':
      return branchReducer(chat, action)
  }
}

/** Removes a reply and the user message right before it. */
function withoutExchange(messages: ChatMessageView[], replyKey: string): ChatMessageView[] {
  const i = messages.findIndex((m) => m.key === replyKey)
  if (i < 0) return messages
  const start = i > 0 && messages[i - 1]?.role === 'user' ? i - 1 : i
  return [...messages.slice(0, start), ...messages.slice(i + 1)]
}

/** The failed or stopped reply that Retry may resend: only the last bubble, and only when it knows its prompt. */
export function retryable(chat: ChatState, key: string): boolean {
  const last = chat.messages[chat.messages.length - 1]
  return (
    last !== undefined && last.key === key && (last.status === 'error' || last.status === 'stopped') && last.prompt !== undefined
  )
}

export interface RunExtras {
  thinking: string
  tools: ToolView[]
  /** The run's notices (display rows of type notification: "… cannot see images: … was not sent"), in order. */
  notices?: string[]
}

/** Thinking and tool calls of past replies, from the saved display messages, by run id. */
export function extrasByRun(display: readonly DisplayMessage[]): Map<string, RunExtras> {
  const byRun = new Map<string, RunExtras>()
  for (const d of display) {
    if (d.runId === undefined) continue
    let extras = byRun.get(d.runId)
    if (extras === undefined) {
      extras = { thinking: '', tools: [] }
      byRun.set(d.runId, extras)
    }
    const c = d.content
    if (d.contentType === 'notification' && typeof c.text === 'string' && c.text !== '') {
      extras.notices = [...(extras.notices ?? []), c.text]
      continue
    }
    if (d.contentType === 'thinking' && typeof c.text === 'string') {
      extras.thinking += c.text
      continue
    }
    if (d.contentType !== 'tool_call' && d.contentType !== 'tool_result') continue
    const callId = typeof c.callId === 'string' ? c.callId : (d.toolCallId ?? d.id)
    extras.tools = upsertTool(extras.tools, callId, (prev) => {
      const tool: ToolView = {
        ...(prev ?? { callId, arguments: {} }),
        callId,
        name: typeof c.name === 'string' ? c.name : (prev?.name ?? 'tool'),
        status: d.status ?? prev?.status ?? (d.contentType === 'tool_result' ? 'completed' : 'executing'),
      }
      if (d.contentType === 'tool_call' && c.arguments !== undefined) tool.arguments = c.arguments
      if (typeof c.terminalRunId === 'string' && c.terminalRunId !== '') tool.terminalRunId = c.terminalRunId
      if (c.result !== undefined && c.result !== null) tool.result = c.result
      if (typeof c.error === 'string' && c.error !== '') {
        tool.error = c.error
        // (A call the user declined or stopped stays cancelled.)
        if (d.status === undefined && prev?.status !== 'cancelled') tool.status = 'failed'
      }
      return tool
    })
  }
  return byRun
}
