// The wire shapes of the context meter, summaries and usage (app/wire/context.go,
// app/wire/usage.go), generated in wire.gen.ts, under the UI's names: the reply's
// token counts are `TokenUsage` here, and a summary's start and end, one
// generated frame, are told apart by their type.

import * as wire from './wire.gen'

export type {
  ContextInfo,
  ConversationSummary,
  ConversationUsage,
  MessageUsage,
  Summary,
  SummaryBody,
  SummaryDelta,
  SummaryRun,
  SummaryStatus,
  UsageReport,
  UsageRow,
} from './wire.gen'

export {
  decodeContextInfo,
  decodeConversationSummary,
  decodeConversationUsage,
  decodeMessageUsage,
  decodeSummary,
  decodeSummaryBody,
  decodeSummaryDelta,
  decodeSummaryRun,
  decodeSummaryStatus,
  decodeUsageReport,
  decodeUsageRow,
} from './wire.gen'

/** A reply's or a call's token counts. */
export type TokenUsage = wire.Usage
export const decodeTokenUsage = wire.decodeUsage

/** Chat SSE: a summary begins (before the turn's reply, or in a regenerate's run). */
export type SummaryStart = wire.SummaryFrame & { type: 'summary_start' }
/** Chat SSE: a summary ended (status "done" or "failed"). */
export type SummaryEnd = wire.SummaryFrame & { type: 'summary_end' }

function summaryFrame<T extends wire.SummaryFrame['type']>(type: T) {
  return (v: unknown, path = 'SummaryFrame'): wire.SummaryFrame & { type: T } => {
    const f = wire.decodeSummaryFrame(v, path)
    if (f.type !== type) throw new wire.WireDecodeError(path + '.type', `want "${type}", have "${f.type}"`)
    return f as wire.SummaryFrame & { type: T }
  }
}

export const decodeSummaryStart = summaryFrame('summary_start')
export const decodeSummaryEnd = summaryFrame('summary_end')
