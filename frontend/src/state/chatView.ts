// The shapes of the open conversation's state: its bubbles and what they show.
// Types only, shared by chat.ts (how frames change them) and proactive.ts (the
// bubbles Wisp sends on its own), so neither imports the other.

import type { Attachment, DisplayMessage, DisplayStatus, MessageRole, MessageUsage, ProactiveMessage, Summary } from '../api'

/** stopped: the run was interrupted (by the user's Stop, or it could not finish); what it said is kept. */
export type BubbleStatus = 'streaming' | 'done' | 'error' | 'stopped'

export interface ToolView {
  callId: string
  name: string
  arguments: unknown
  status: DisplayStatus
  result?: unknown
  error?: string
  /** The terminal run its command runs as (RUN_SHELL), once it runs. */
  terminalRunId?: string
}

export interface ChatMessageView {
  /** Stable React key: the server id for loaded messages, a local id for new ones. */
  key: string
  /** Server message id, once known. */
  id: string | null
  role: MessageRole
  text: string
  /** The reply's segment texts (delta dialect) that text was joined from; absent or null when not known. */
  segments?: readonly string[] | null
  status: BubbleStatus
  error?: string
  /** Why a stopped reply stopped, as the server said it (USER_STOP_REASON for the Stop button). */
  stopReason?: string
  /** Stop was asked for and the run has not ended yet. */
  stopping?: boolean
  runId?: string
  timestamp: number
  /** Thinking and tools below came from this page's stream (else from display messages). */
  live: boolean
  /** Highest frame sequence number applied; frames at or below it are repeats. */
  lastSeq: number
  thinking: string
  tools: ToolView[]
  /** For replies: the user text it answers (what Retry sends again). */
  prompt?: string
  /** For replies: the files of the question it answers (Retry sends them again). */
  promptAttachments?: readonly Attachment[]
  /** A user message's files, shown above its text. */
  attachments?: readonly Attachment[]
  /** chat, or reminder/autonomy/terminal for what Wisp said on its own. */
  source?: string
  /** A reminder delivered more than a minute late. */
  late?: boolean
  /**
   * The versions of this message (the messages sharing its parent, oldest
   * first, itself included; a version this page made and the server has not
   * named yet appears by its key). Absent when it has no other version.
   */
  siblingIds?: readonly string[]
  /** Where this message is in siblingIds. */
  siblingIndex?: number
  /** A saved reply's tokens and cost (as loaded; a reply of this page has it once the conversation is read again). */
  usage?: MessageUsage
}

export interface ChatState {
  /** null: a new chat that has no conversation yet. */
  conversationId: string | null
  /** Changes whenever another conversation (or a new chat) is opened; late results of an older one are dropped. */
  session: number
  loading: boolean
  loadError: string | null
  messages: ChatMessageView[]
  display: DisplayMessage[]
  /** The summaries of older messages whose row follows a loaded message (none undone), shown after it. */
  summaries: Summary[]
  /**
   * The messages are a window of the active branch (state/messageWindow.ts): it
   * goes on before them / after them, in pages not loaded now.
   */
  hasOlder: boolean
  hasNewer: boolean
  /** Bumped whenever the window is replaced (a load, a jump to a message): the list finds its place again. */
  windowSeq: number
  /** Proactive messages received since it was opened: a load that raced them keeps them. */
  proactive: ProactiveMessage[]
}
