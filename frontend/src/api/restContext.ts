// The typed client's part for issue 30's context and usage routes
// (docs/chat.md): the context meter, a conversation's and every day's usage,
// and a summary's regenerate and undo. ApiClient exposes it as `context`; it
// reaches the server only through the client's transport, so errors are
// ApiError as everywhere else.

import type { ChatStream } from './chatStream'
import type { ContextInfo, ConversationUsage, Summary, UsageReport } from './chatTypes'
import * as ctx from './contextTypes'
import { decodeOrNull } from './wire.gen'

/** What the client lends this part: a decoded JSON request, and a run's stream. */
export interface ContextTransport {
  /** A JSON request (POST sends {}) whose 2xx answer decode takes; ApiError otherwise. */
  call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, decode: (v: unknown) => T | null, what: string): Promise<T>
  streamRun(runId: string, after: number, opts?: { signal?: AbortSignal }): Promise<ChatStream>
}

/** Days GET /api/usage takes (the server's bounds). */
export const USAGE_DAYS = { min: 1, max: 366, default: 30 } as const

const seg = encodeURIComponent
const strict =
  <T>(decode: (v: unknown) => T) =>
  (v: unknown): T | null =>
    decodeOrNull(decode, v)

export class ContextApi {
  private readonly t: ContextTransport

  constructor(transport: ContextTransport) {
    this.t = transport
  }

  /** What the next turn of the branch shown would send, of what window, and when the next summary is made. */
  getContext(conversationId: string): Promise<ContextInfo> {
    return this.t.call('GET', `/api/conversations/${seg(conversationId)}/context`, strict(ctx.decodeContextInfo), 'context')
  }

  /** The conversation's model calls, tokens and cost. */
  getConversationUsage(conversationId: string): Promise<ConversationUsage> {
    const path = `/api/conversations/${seg(conversationId)}/usage`
    return this.t.call('GET', path, strict(ctx.decodeConversationUsage), 'usage')
  }

  /** Every model call of the last `days` days (1–366), by day and model, newest first. */
  getUsage(days: number = USAGE_DAYS.default): Promise<UsageReport> {
    const d = Math.min(USAGE_DAYS.max, Math.max(USAGE_DAYS.min, Math.floor(days)))
    return this.t.call('GET', `/api/usage?days=${d}`, strict(ctx.decodeUsageReport), 'usage report')
  }

  /**
   * Makes a summary again (202): resolves with its run and the summary
   * (streaming); read the run with streamSummary. Rejects with ApiError (404
   * unknown summary, 409 the conversation is busy).
   */
  regenerateSummary(conversationId: string, summaryId: string): Promise<ctx.SummaryRun> {
    const path = `/api/conversations/${seg(conversationId)}/summaries/${seg(summaryId)}/regenerate`
    return this.t.call('POST', path, strict(ctx.decodeSummaryRun), 'summary')
  }

  /** The frames of a summary's run (summary_start, summary_delta…, summary_end), from after `after`. */
  streamSummary(runId: string, after = 0, opts: { signal?: AbortSignal } = {}): Promise<ChatStream> {
    return this.t.streamRun(runId, after, opts)
  }

  /** Undoes a summary: the context uses the messages again. Resolves with it, status "undone". */
  async undoSummary(conversationId: string, summaryId: string): Promise<Summary> {
    const path = `/api/conversations/${seg(conversationId)}/summaries/${seg(summaryId)}`
    return (await this.t.call('DELETE', path, strict(ctx.decodeSummaryBody), 'summary')).summary
  }
}
