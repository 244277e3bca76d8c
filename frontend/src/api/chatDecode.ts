// Runtime checks for the chat API's JSON (docs/chat.md): conversations,
// messages, runs and display messages by the generated checks of wire.gen.ts
// (null for a value that is not its shape); the reply's SSE frames, the send
// result, the provider and a turn's heartbeat by hand, as the UI reads them
// (one ChatFrame union for both dialects, defaults for what an older server left
// out).

import type {
  ChatFrame,
  ChatFrameType,
  Conversation,
  ConversationSummaryMessage,
  ConversationUpdatedMessage,
  DisplayMessage,
  DisplayMessageEvent,
  JsonPatchOperation,
  Message,
  MessagePage,
  ProviderInfo,
  Run,
  SendResult,
  Summary,
  TokenFrame,
  TurnHeartbeat,
  Usage,
} from './chatTypes'
import { decodeApproval, isApprovalDecision } from './approvalDecode'
import { isBoolean, isNumber, isObject, isString, isStringArray, oneOf, optional } from './guards'
import type { JsonObject } from './types'
import * as wire from './wire.gen'
import * as ctx from './contextTypes'

const isMessageStatus = oneOf(wire.RunStatusValues)
const isDisplayStatus = oneOf(wire.ToolCallStatusValues)
const isProviderName = oneOf(['openai', 'anthropic', 'ollama', ''])
const isTurnStatus = oneOf(wire.TurnStatusValues)

/** Copies the listed optional fields of src that pass check onto dst. */
function copyOptional<T extends object>(
  dst: T,
  src: JsonObject,
  keys: readonly (keyof T & string)[],
  check: (v: unknown) => boolean,
): void {
  for (const key of keys) {
    const value = src[key]
    if (check(value)) (dst as Record<string, unknown>)[key] = value
  }
}

export function decodeConversation(v: unknown): Conversation | null {
  return wire.decodeOrNull(wire.decodeConversation, v)
}

export function decodeConversationList(v: unknown): Conversation[] | null {
  return wire.decodeOrNull(wire.decodeConversationList, v)?.conversations ?? null
}

/** {conversation} answers of POST, GET and PATCH. */
export function decodeConversationBody(v: unknown): Conversation | null {
  return wire.decodeOrNull(wire.decodeConversationBody, v)?.conversation ?? null
}

/** A message; a usage that is not its shape makes it malformed. */
export function decodeMessage(v: unknown): Message | null {
  const m: Message | null = wire.decodeOrNull(wire.decodeMessage, v)
  if (m === null || !isObject(v) || v.usage === undefined) return m
  const usage = wire.decodeOrNull(ctx.decodeMessageUsage, v.usage)
  return usage === null ? null : { ...m, usage }
}

export function decodeSummary(v: unknown): Summary | null {
  return wire.decodeOrNull(ctx.decodeSummary, v)
}

/**
 * A page's summaries: none when the server sent none (one from before
 * summaries); like display rows they are decoration, so one this client
 * does not understand is left out.
 */
function decodePageSummaries(v: unknown): Summary[] {
  if (!Array.isArray(v)) return []
  return v.map(decodeSummary).filter((s) => s !== null)
}

export function decodeMessageList(v: unknown): Message[] | null {
  return wire.decodeOrNull(wire.decodeMessageList, v)?.messages ?? null
}

/** A page of the branch shown (PUT …/branch answers one). */
export function decodeMessagePage(v: unknown): MessagePage | null {
  const base = wire.decodeOrNull(wire.decodeMessageList, v)
  const page = decodeMessagesPage(v)
  if (base === null || page === null) return null
  return { ...base, messages: page.messages, summaries: page.summaries }
}

/**
 * A page of GET …/messages (wire MessageList): the messages strictly, the
 * display rows leniently (as decodeDisplayMessageList); displayMessages is
 * null when the server sent none (a server from before pages).
 */
export function decodeMessagesPage(v: unknown): (Omit<MessagePage, 'displayMessages'> & { displayMessages: DisplayMessage[] | null }) | null {
  if (!isObject(v)) return null
  if (!Array.isArray(v.messages)) return null
  const messages: Message[] = []
  for (const item of v.messages) {
    const m = decodeMessage(item)
    if (m === null) return null
    messages.push(m)
  }
  const rows = Array.isArray(v.displayMessages) ? decodeDisplayMessageList({ displayMessages: v.displayMessages }) : null
  return {
    messages,
    hasOlder: v.hasOlder === true,
    hasNewer: v.hasNewer === true,
    branchLength: isNumber(v.branchLength) ? v.branchLength : messages.length,
    displayMessages: rows,
    summaries: decodePageSummaries(v.summaries),
  }
}

function decodeUsage(v: unknown): Usage | undefined {
  if (!isObject(v) || !isNumber(v.inputTokens) || !isNumber(v.outputTokens)) return undefined
  const { inputTokens, outputTokens } = v
  return {
    inputTokens,
    outputTokens,
    cacheReadTokens: isNumber(v.cacheReadTokens) ? v.cacheReadTokens : 0,
    cacheWriteTokens: isNumber(v.cacheWriteTokens) ? v.cacheWriteTokens : 0,
    promptTokens: isNumber(v.promptTokens) ? v.promptTokens : inputTokens,
    completionTokens: isNumber(v.completionTokens) ? v.completionTokens : outputTokens,
    totalTokens: isNumber(v.totalTokens) ? v.totalTokens : inputTokens + outputTokens,
  }
}

export function decodeSendResult(v: unknown): SendResult | null {
  if (!isObject(v)) return null
  const { text, agentName, runId, messageId } = v
  if (!isString(text) || !isString(runId) || !isString(messageId)) return null
  const result: SendResult = {
    text,
    agentName: isString(agentName) ? agentName : '',
    runId,
    messageId,
    actionCallbackHistory: isStringArray(v.actionCallbackHistory) ? v.actionCallbackHistory : [],
  }
  const usage = decodeUsage(v.usage)
  if (usage !== undefined) result.usage = usage
  const status = optional(v.status, isMessageStatus)
  if (status !== undefined) result.status = status
  copyOptional(result, v, ['error'], isString)
  return result
}

export function decodeRun(v: unknown): Run | null {
  return wire.decodeOrNull(wire.decodeRunInfo, v)
}

export function decodeRunBody(v: unknown): Run | null {
  return isObject(v) ? decodeRun(v.run) : null
}

export function decodeDisplayMessage(v: unknown): DisplayMessage | null {
  return wire.decodeOrNull(wire.decodeDisplayMessage, v)
}

/**
 * {displayMessages:[...]}. Display messages are decoration, so an element
 * this client does not understand (say a newer contentType) is skipped;
 * a body that is not that shape is rejected.
 */
export function decodeDisplayMessageList(v: unknown): DisplayMessage[] | null {
  if (!isObject(v) || !Array.isArray(v.displayMessages)) return null
  const out: DisplayMessage[] = []
  for (const item of v.displayMessages) {
    if (!isObject(item)) return null
    const decoded = decodeDisplayMessage(item)
    if (decoded !== null) out.push(decoded)
  }
  return out
}

export function decodeTruncate(v: unknown): { ok: true; deletedCount: number } | null {
  if (!isObject(v) || v.ok !== true) return null
  return { ok: true, deletedCount: isNumber(v.deletedCount) ? v.deletedCount : 0 }
}

export function decodeProvider(v: unknown): ProviderInfo | null {
  if (!isObject(v)) return null
  const { provider, baseURL, model, hasApiKey, canRespond } = v
  if (!isProviderName(provider) || !isString(baseURL) || !isString(model)) return null
  if (!isBoolean(hasApiKey) || !isBoolean(canRespond)) return null
  let ollama: ProviderInfo['ollama'] = { detected: false, models: [] }
  if (v.ollama !== undefined) {
    if (!isObject(v.ollama) || !isBoolean(v.ollama.detected)) return null
    const models = v.ollama.models ?? []
    if (!isStringArray(models)) return null
    ollama = { detected: v.ollama.detected, models }
  }
  const info: ProviderInfo = { provider, baseURL, model, hasApiKey, canRespond, ollama }
  const reason = optional(v.reason, isString)
  if (reason !== undefined && reason !== '') info.reason = reason
  if (isStringArray(v.envOverrides) && v.envOverrides.length > 0) info.envOverrides = v.envOverrides
  // (Lenient: a server from before attachments sends no vision; anything else is not known.)
  if (v.vision === 'yes' || v.vision === true) info.vision = 'yes'
  else if (v.vision === 'no' || v.vision === false) info.vision = 'no'
  return info
}

const CHAT_FRAMES: Record<ChatFrameType, true> = {
  token: true,
  reply: true,
  thinking: true,
  tool_start: true,
  tool_end: true,
  tool_status: true,
  run_paused: true,
  run_resumed: true,
  stream_resync: true,
  custom: true,
  state_patch: true,
  summary_start: true,
  summary_delta: true,
  summary_end: true,
  done: true,
  error: true,
  speech: true,
}

/** Every chat SSE frame type this client decodes, in either dialect. */
export const CHAT_FRAME_TYPES = Object.keys(CHAT_FRAMES) as ChatFrameType[]

/** The JSON of one SSE data: field. Unknown or malformed frames are null. */
export function decodeChatFrame(v: unknown): ChatFrame | null {
  if (!isObject(v)) return null
  switch (v.type) {
    case 'token':
      return decodeTokenFrame(v)
    case 'reply':
      if (!isStringArray(v.segments) || !isString(v.fullText)) return null
      return { type: 'reply', segments: v.segments, fullText: v.fullText }
    case 'thinking':
      if (!isString(v.text)) return null
      return v.complete === true ? { type: 'thinking', text: v.text, complete: true } : { type: 'thinking', text: v.text }
    case 'custom':
      if (!isString(v.callId) || !isString(v.eventName) || v.eventName === '') return null
      return { type: 'custom', callId: v.callId, eventName: v.eventName, data: v.data ?? null }
    case 'state_patch':
      return decodeStatePatchFrame(v)
    case 'tool_start':
      if (!isString(v.callId) || !isString(v.name)) return null
      return { type: 'tool_start', callId: v.callId, name: v.name, arguments: v.arguments ?? {} }
    case 'tool_end': {
      if (!isString(v.callId) || !isString(v.name)) return null
      const frame: ChatFrame = { type: 'tool_end', callId: v.callId, name: v.name }
      if (v.result !== undefined && v.result !== null) frame.result = v.result
      if (isString(v.error) && v.error !== '') frame.error = v.error
      return frame
    }
    case 'tool_status':
      return decodeToolStatusFrame(v)
    case 'run_paused':
      return decodeRunPausedFrame(v)
    case 'run_resumed':
      if (!isString(v.approvalId) || v.approvalId === '' || !isApprovalDecision(v.decision)) return null
      return { type: 'run_resumed', approvalId: v.approvalId, decision: v.decision }
    case 'stream_resync':
      if (!isSegmentIndex(v.fromSequence) || !isSegmentIndex(v.messageCount)) return null
      if (v.reason !== undefined && !isString(v.reason)) return null
      return { type: 'stream_resync', reason: v.reason ?? '', fromSequence: v.fromSequence, messageCount: v.messageCount }
    case 'summary_start':
      return wire.decodeOrNull(ctx.decodeSummaryStart, v)
    case 'summary_delta':
      return wire.decodeOrNull(ctx.decodeSummaryDelta, v)
    case 'summary_end':
      return wire.decodeOrNull(ctx.decodeSummaryEnd, v)
    case 'speech':
      return wire.decodeOrNull(wire.decodeSpeech, v)
    case 'done':
      return decodeDoneFrame(v)
    case 'error': {
      // An error ends the stream whatever it carries, so never drop one.
      const frame: ChatFrame = { type: 'error', message: isString(v.message) && v.message !== '' ? v.message : 'the reply failed' }
      copyOptional(frame, v, ['recoverable', 'interrupted'], isBoolean)
      return frame
    }
    default:
      return null
  }
}

const isSegmentIndex = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0

/**
 * A token frame of either dialect: the delta dialect's {text, segment?,
 * callback?} or the older {text, fullText, callback?}. A segment that is not
 * an index makes the frame malformed (its text would land in the wrong place).
 */
function decodeTokenFrame(v: JsonObject): TokenFrame | null {
  if (!isString(v.text)) return null
  const frame: TokenFrame = { type: 'token', text: v.text }
  if (v.segment !== undefined) {
    if (!isSegmentIndex(v.segment)) return null
    frame.segment = v.segment
  }
  if (v.callback === true) frame.callback = true
  if (v.fullText !== undefined) {
    if (!isString(v.fullText)) return null
    frame.fullText = v.fullText
  }
  return frame
}

const isPatchOp = oneOf(['add', 'remove', 'replace', 'move', 'copy', 'test'])

/** Every operation must be whole: a patch applies all or nothing, so one bad operation drops the frame. */
function decodeStatePatchFrame(v: JsonObject): ChatFrame | null {
  if (!Array.isArray(v.patches) || (v.callId !== undefined && !isString(v.callId))) return null
  const patches: JsonPatchOperation[] = []
  for (const p of v.patches) {
    if (!isObject(p) || !isPatchOp(p.op) || !isString(p.path)) return null
    const op: JsonPatchOperation = { op: p.op, path: p.path }
    if (p.op === 'move' || p.op === 'copy') {
      if (!isString(p.from)) return null
      op.from = p.from
    }
    if (p.op === 'add' || p.op === 'replace' || p.op === 'test') {
      if (!('value' in p)) return null
      op.value = p.value
    }
    patches.push(op)
  }
  const frame: ChatFrame = { type: 'state_patch', patches }
  if (isString(v.callId) && v.callId !== '') frame.callId = v.callId
  return frame
}

/** A terminalRunId that is not a non-empty string makes the frame malformed (the link would go nowhere). */
function decodeToolStatusFrame(v: JsonObject): ChatFrame | null {
  if (!isString(v.callId) || v.callId === '' || !isString(v.name) || !isDisplayStatus(v.status)) return null
  const frame: ChatFrame = { type: 'tool_status', callId: v.callId, name: v.name, status: v.status }
  if (v.terminalRunId !== undefined && v.terminalRunId !== null && v.terminalRunId !== '') {
    if (!isString(v.terminalRunId)) return null
    frame.terminalRunId = v.terminalRunId
  }
  return frame
}

/** The approval must be whole and be the one approvalId names; the other fields default to the approval's. */
function decodeRunPausedFrame(v: JsonObject): ChatFrame | null {
  const approval = decodeApproval(v.approval)
  if (approval === null || v.approvalId !== approval.id) return null
  const text = (x: unknown, fallback: string): string | null => (x === undefined ? fallback : isString(x) ? x : null)
  const reason = text(v.reason, '')
  const pendingToolName = text(v.pendingToolName, approval.toolName)
  const pendingToolCallId = text(v.pendingToolCallId, approval.callId)
  if (reason === null || pendingToolName === null || pendingToolCallId === null) return null
  return { type: 'run_paused', reason, pendingToolName, pendingToolCallId, approvalId: approval.id, approval }
}

function decodeDoneFrame(v: JsonObject): ChatFrame | null {
  if (!isString(v.fullText)) return null
  const frame: ChatFrame = {
    type: 'done',
    fullText: v.fullText,
    agentName: optional(v.agentName, isString) ?? '',
    runId: optional(v.runId, isString) ?? '',
    messageId: optional(v.messageId, isString) ?? '',
    actionCallbackHistory: isStringArray(v.actionCallbackHistory) ? v.actionCallbackHistory : [],
  }
  const usage = decodeUsage(v.usage)
  if (usage !== undefined) frame.usage = usage
  return frame
}

export function decodeConversationUpdated(v: JsonObject): ConversationUpdatedMessage | null {
  const conversation = decodeConversation(v.conversation)
  return conversation === null ? null : { type: 'conversation-updated', conversation }
}

/** /ws conversation-summary. */
export function decodeConversationSummary(v: JsonObject): ConversationSummaryMessage | null {
  return wire.decodeOrNull(ctx.decodeConversationSummary, v)
}

export function decodeDisplayMessageEvent<T extends 'display-message-saved' | 'display-message-updated'>(
  type: T,
  v: JsonObject,
): DisplayMessageEvent<T> | null {
  const message = decodeDisplayMessage(v.message)
  if (message === null) return null
  const conversationId = optional(v.conversationId, isString) ?? message.conversationId
  return { type, conversationId, message }
}

/** The payload of a heartbeat_event about a chat turn; null for other heartbeats. */
export function decodeTurnHeartbeat(payload: JsonObject, envelopeTs: number): TurnHeartbeat | null {
  const { status, conversationId } = payload
  if (!isTurnStatus(status) || !isString(conversationId) || conversationId === '') return null
  const beat: TurnHeartbeat = { status, conversationId, ts: optional(payload.ts, isNumber) ?? envelopeTs }
  copyOptional(beat, payload, ['runId', 'preview'], isString)
  copyOptional(beat, payload, ['durationMs'], isNumber)
  return beat
}
