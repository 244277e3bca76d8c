// Issue 30's hand-written decoders (until generated): whole examples decode as
// they are, a wrong or missing field is refused with its JSON path, and the
// chat and /ws decoders take the new frames, a message's usage and a page's
// summaries.

import { describe, expect, it } from 'vitest'
import { decodeChatFrame, decodeMessage, decodeMessagePage, decodeMessagesPage } from './chatDecode'
import { decodeServerMessage } from './decode'
import * as ctx from './pending30Ctx'
import { summaryExample } from './summaries.test-util'
import { WireDecodeError } from './wire.gen'


const usage = { inputTokens: 1204, outputTokens: 312, cacheReadTokens: 0, cacheWriteTokens: 0 }

const contextExample: ctx.ContextInfo = {
  conversationId: 'c1',
  model: 'gpt-4o-mini',
  window: 8000,
  windowSource: 'provider',
  budget: 5000,
  used: 3100,
  summaryAt: 4000,
}

/** decode(v) throws a WireDecodeError whose path is path. */
function refused(decode: (v: unknown) => unknown, v: unknown, path: string): void {
  let err: unknown = null
  try {
    decode(v)
  } catch (e) {
    err = e
  }
  expect(err).toBeInstanceOf(WireDecodeError)
  expect((err as WireDecodeError).path).toBe(path)
}

describe('issue 30 shapes', () => {
  it('decodes whole examples as they are', () => {
    expect(ctx.decodeSummary(summaryExample)).toEqual(summaryExample)
    expect(ctx.decodeSummary({ ...summaryExample, status: 'failed', error: 'model down' })).toEqual({
      ...summaryExample,
      status: 'failed',
      error: 'model down',
    })
    expect(ctx.decodeContextInfo(contextExample)).toEqual(contextExample)
    expect(ctx.decodeContextInfo({ ...contextExample, summaryId: 's1' })).toEqual({ ...contextExample, summaryId: 's1' })
    const older = { ...usage, promptTokens: 1204, completionTokens: 312, totalTokens: 1516 }
    expect(ctx.decodeTokenUsage(older)).toEqual(older)
    const mu = { model: 'gpt-4o-mini', usage, costUsd: 0.003 }
    expect(ctx.decodeMessageUsage(mu)).toEqual(mu)
    expect(ctx.decodeMessageUsage({ ...mu, costUsd: null })).toEqual({ ...mu, costUsd: null })
    const cu = { conversationId: 'c1', usage, costUsd: 0.012, unpriced: 1, calls: 4 }
    expect(ctx.decodeConversationUsage(cu)).toEqual(cu)
    const report = { rows: [{ day: '2026-11-28', model: 'm', usage, costUsd: 0.5, unpriced: 0, calls: 2 }], total: usage, costUsd: 0.5 }
    expect(ctx.decodeUsageReport(report)).toEqual(report)
    expect(ctx.decodeSummaryRun({ runId: 'r', summary: summaryExample })).toEqual({ runId: 'r', summary: summaryExample })
  })

  it('refuses a wrong or missing field, naming where', () => {
    refused(ctx.decodeSummary, { ...summaryExample, status: 'gone' }, 'Summary.status')
    refused(ctx.decodeSummary, { ...summaryExample, covers: '48' }, 'Summary.covers')
    const { throughId: _t, ...noThrough } = summaryExample
    refused(ctx.decodeSummary, noThrough, 'Summary.throughId')
    refused(ctx.decodeSummary, { ...summaryExample, error: 3 }, 'Summary.error')
    refused(ctx.decodeContextInfo, { ...contextExample, used: null }, 'ContextInfo.used')
    const { window: _w, ...noWindow } = contextExample
    refused(ctx.decodeContextInfo, noWindow, 'ContextInfo.window')
    refused(ctx.decodeMessageUsage, { model: 'm', usage, costUsd: '0.1' }, 'MessageUsage.costUsd')
    refused(ctx.decodeMessageUsage, { model: 'm', costUsd: 0 }, 'MessageUsage.usage')
    refused(ctx.decodeMessageUsage, { model: 'm', usage: { ...usage, cacheReadTokens: undefined }, costUsd: 0 }, 'MessageUsage.usage.cacheReadTokens')
    refused(ctx.decodeUsageReport, { rows: [{}], total: usage, costUsd: 0 }, 'UsageReport.rows[0].day')
    refused(ctx.decodeConversationSummary, { type: 'conversation-summary', summary: summaryExample }, 'ConversationSummary.conversationId')
    refused(ctx.decodeSummaryDelta, { type: 'summary_delta', summaryId: 's1' }, 'SummaryDelta.text')
    refused(ctx.decodeSummaryStart, [], 'SummaryStart')
  })
})

describe('issue 30 in the chat and /ws decoders', () => {
  it('decodes the summary frames of a reply stream, and drops malformed ones', () => {
    expect(decodeChatFrame({ type: 'summary_start', summary: { ...summaryExample, status: 'streaming', text: '' } })).toEqual({
      type: 'summary_start',
      summary: { ...summaryExample, status: 'streaming', text: '' },
    })
    expect(decodeChatFrame({ type: 'summary_delta', summaryId: 's1', text: 'They ' })).toEqual({ type: 'summary_delta', summaryId: 's1', text: 'They ' })
    expect(decodeChatFrame({ type: 'summary_end', summary: summaryExample })).toEqual({ type: 'summary_end', summary: summaryExample })
    expect(decodeChatFrame({ type: 'summary_delta', text: 'x' })).toBeNull()
    expect(decodeChatFrame({ type: 'summary_end', summary: { ...summaryExample, covers: -0.5, id: 1 } })).toBeNull()
  })

  it('decodes the conversation-summary frame, and refuses one without its summary', () => {
    const frame = { type: 'conversation-summary', conversationId: 'c1', summary: { ...summaryExample, status: 'undone' } }
    expect(decodeServerMessage(JSON.stringify(frame))).toEqual(frame)
    expect(decodeServerMessage(JSON.stringify({ type: 'conversation-summary', conversationId: 'c1' }))).toBeNull()
  })

  const message = { id: 'a1', role: 'assistant', text: 'hi', timestamp: 1, parentId: 'u1', siblingIds: ['a1'], siblingIndex: 0, depth: 1 }

  it("keeps a message's usage, and refuses a message whose usage is not its shape", () => {
    const withUsage = { ...message, usage: { model: 'm', usage, costUsd: null } }
    expect(decodeMessage(withUsage)).toEqual(withUsage)
    expect(decodeMessage(message)).toEqual(message)
    expect(decodeMessage({ ...message, usage: { model: 'm', costUsd: 1 } })).toBeNull()
  })

  it("reads a page's summaries (none from an older server), leaving out one it does not understand", () => {
    const page = { messages: [message], hasOlder: false, hasNewer: false, branchLength: 1, displayMessages: [] }
    expect(decodeMessagesPage(page)?.summaries).toEqual([])
    const odd = { ...summaryExample, id: 's2', status: 'pending' }
    expect(decodeMessagesPage({ ...page, summaries: [summaryExample, odd] })?.summaries).toEqual([summaryExample])
    expect(decodeMessagePage({ ...page, summaries: [summaryExample] })).toEqual({ ...page, summaries: [summaryExample] })
  })
})
