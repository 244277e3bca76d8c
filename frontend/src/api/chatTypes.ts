// Wire types of the chat API (docs/chat.md): conversations, messages, runs,
// display messages, the SSE frames of a reply and the provider setup.
// Decoders live in chatDecode.ts; nothing here has behaviour.

import type { Approval, ApprovalDecision } from './approvalTypes'
import type { JsonObject } from './json'
import type { MessageUsage, Summary, SummaryDelta, SummaryEnd, SummaryStart } from './contextTypes'
import type {
  DisplayMessageChanged,
  Message as WireMessage,
  MessageList,
  ProviderInfo as WireProviderInfo,
  RunStatus,
  Speech,
  ToolCallStatus,
  Usage,
} from './wire.gen'

/**
 * What the server sends of conversations, messages, runs and display messages is
 * generated from the Go types (wire.gen.ts, app/wire/shapes.go).
 */
export type {
  Conversation,
  Role as MessageRole,
  RunStatus as MessageStatus,
  Usage,
  RunInfo as Run,
  DisplayMessageType,
  DisplayContentType,
  ToolCallStatus as ToolStatus,
  DisplayMessage,
  Truncated as TruncateResult,
  ConversationUpdated as ConversationUpdatedMessage,
} from './wire.gen'
export type {
  ContextInfo,
  ConversationSummary as ConversationSummaryMessage,
  ConversationUsage,
  MessageUsage,
  Summary,
  SummaryStatus,
  TokenUsage,
  UsageReport,
  UsageRow,
} from './contextTypes'

/** A message; an assistant reply carries what it cost (contextTypes.ts). */
export type Message = WireMessage & { usage?: MessageUsage }

/** A page of a branch: its messages, display rows, and the summaries after its messages (not undone ones). */
export type MessagePage = Omit<MessageList, 'messages'> & { messages: Message[]; summaries: Summary[] }

/** Which page of a conversation's active branch GET …/messages answers (docs/chat.md); none: the newest. */
export interface PageQuery {
  /** The messages just before this one. */
  before?: string
  /** The messages just after this one. */
  after?: string
  /** A page with this message in its middle. */
  around?: string
  /** How many (the server's default 100, cap 500). */
  limit?: number
}

/** A display message's status: its tool call's. */
export type DisplayStatus = ToolCallStatus

export interface ChatRequest {
  text: string
  clientMessageId?: string
  metadata?: JsonObject
  images?: unknown[]
  /** Ids of uploaded attachments (POST /api/attachments), in order; an edit without it keeps the message's own. */
  attachments?: string[]
}

/** POST /api/conversations/{id}/messages, answered when the run ends. */
export interface SendResult {
  text: string
  agentName: string
  runId: string
  messageId: string
  usage?: Usage
  actionCallbackHistory: string[]
  /** How the run ended (ended, interrupted; a failed run is a 502 instead). */
  status?: RunStatus
  /** Why it was interrupted. */
  error?: string
}


/** One RFC 6902 operation of a state_patch frame. */
export interface JsonPatchOperation {
  op: 'add' | 'remove' | 'replace' | 'move' | 'copy' | 'test'
  path: string
  from?: string
  value?: unknown
}

/**
 * One SSE frame of a reply (the JSON of its data: field), in either dialect of
 * docs/chat.md. The UI asks for the delta dialect; the other one's token frames
 * (with fullText) are still understood.
 */
export type ChatFrame =
  | TokenFrame
  /** Delta dialect, resuming: every segment's text so far (once, first) and the visible reply they make. */
  | { type: 'reply'; segments: string[]; fullText: string }
  /** More reasoning; complete (with no text) closes the step's reasoning. */
  | { type: 'thinking'; text: string; complete?: true }
  | { type: 'tool_start'; callId: string; name: string; arguments: unknown }
  /** An action's own event (seed 001's custom chunk). */
  | { type: 'custom'; callId: string; eventName: string; data: unknown }
  /** RFC 6902 operations on the run's state, a document that starts as {} (GET /api/runs/{id}/state). */
  | { type: 'state_patch'; callId?: string; patches: JsonPatchOperation[] }
  | { type: 'tool_end'; callId: string; name: string; result?: unknown; error?: string }
  /** A tool call's new status; terminalRunId once its command runs in the terminal. */
  | { type: 'tool_status'; callId: string; name: string; status: ToolCallStatus; terminalRunId?: string }
  /** The run waits for the user's decision on approval (docs/approvals.md). */
  | {
      type: 'run_paused'
      reason: string
      pendingToolName: string
      pendingToolCallId: string
      approvalId: string
      approval: Approval
    }
  /** The run goes on after the decision. */
  | { type: 'run_resumed'; approvalId: string; decision: ApprovalDecision }
  /** The run was cut short by a crash: reload the conversation and go on from fromSequence. */
  | { type: 'stream_resync'; reason: string; fromSequence: number; messageCount: number }
  | {
      type: 'done'
      fullText: string
      agentName: string
      runId: string
      messageId: string
      actionCallbackHistory: string[]
      usage?: Usage
    }
  /** A summary of older messages begins, streams and ends (before the turn's reply, or in a regenerate's run). */
  | SummaryStart
  | SummaryDelta
  | SummaryEnd
  /** recoverable: the reply goes on after it; interrupted: the reply was stopped, what it said is kept. */
  | { type: 'error'; message: string; recoverable?: boolean; interrupted?: boolean }
  /** A clause of the reply to speak (only when speaking replies): its text and where it is in the segment. */
  | SpeechFrame

/** docs/voice.md: a clause to speak, index counting from 0 in the reply; final on the last. */
export type SpeechFrame = Speech

export type ChatFrameType = ChatFrame['type']

/**
 * Reply text. Delta dialect: text is appended to segment `segment` (0 when
 * absent), or with callback (an action's status) replaces that segment's text.
 * The older dialect instead carries the whole reply in fullText, which wins.
 */
export interface TokenFrame {
  type: 'token'
  text: string
  segment?: number
  callback?: true
  fullText?: string
}

/** A frame with its run sequence number (the SSE id:, null when absent). */
export interface SeqFrame {
  seq: number | null
  frame: ChatFrame
}

export type ProviderKind = 'openai' | 'anthropic' | 'ollama'

/** Whether the model sees images: the provider says so (Ollama's capabilities), or it is not known. */
export type VisionSupport = 'yes' | 'no' | 'unknown'

/**
 * GET /api/provider (generated from api.ProviderInfo); decoded leniently by
 * decodeProvider. vision: whether the model sees images, when the server says it.
 */
export type ProviderInfo = WireProviderInfo & { vision?: VisionSupport }

/** PUT /api/provider. An empty or missing apiKey keeps the stored one. */
export interface ProviderUpdate {
  provider: ProviderKind
  baseURL?: string
  model: string
  apiKey?: string
}

/** heartbeat_event payload during a turn. */
export type TurnStatus = 'thinking' | 'replying' | 'sent' | 'failed'

export interface TurnHeartbeat {
  status: TurnStatus
  conversationId: string
  runId?: string
  preview?: string
  ts: number
  durationMs?: number
}

/** /ws: a display message of a conversation was saved or changed. */
export type DisplayMessageEvent<T extends DisplayMessageChanged['type'] = DisplayMessageChanged['type']> = DisplayMessageChanged & {
  type: T
}
