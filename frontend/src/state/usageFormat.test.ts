import { describe, expect, it } from 'vitest'
import type { ContextInfo } from '../api'
import { summaryExample } from '../api/summaries.test-util'
import { conversationCost, formatCost, formatTokens, meterView, summaryCovers, usageLine } from './usageFormat'

const usage = { inputTokens: 1204, outputTokens: 312, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 1204, completionTokens: 312, totalTokens: 1516 }

describe('usage formats', () => {
  it('says token counts short', () => {
    expect([950, 1000, 3100, 6200, 8000, 12_345, 128_000, 1_050_000].map(formatTokens)).toEqual([
      '950',
      '1k',
      '3.1k',
      '6.2k',
      '8k',
      '12.3k',
      '128k',
      '1.05M',
    ])
  })

  it('says costs with the digits that matter', () => {
    expect([0, 0.012, 0.0123, 0.00042, 0.5, 1.256].map(formatCost)).toEqual(['$0', '$0.012', '$0.012', '$0.00042', '$0.5', '$1.26'])
  })

  it("says a message's tokens and cost, cache tokens only when there are some", () => {
    expect(usageLine({ model: 'm', usage, costUsd: 0.003 })).toBe('1,204 in · 312 out · $0.003')
    expect(usageLine({ model: 'm', usage: { ...usage, cacheReadTokens: 800, cacheWriteTokens: 20 }, costUsd: null })).toBe(
      '1,204 in · 312 out · 800 cached · 20 cache written · no price',
    )
  })

  it("says the conversation's cost honestly when models have no price", () => {
    const u = { conversationId: 'c', usage, costUsd: 0.012, unpriced: 0, calls: 3 }
    expect(conversationCost(u)).toBe('$0.012')
    expect(conversationCost({ ...u, unpriced: 1 })).toBe('$0.012 + 1 unpriced call')
    expect(conversationCost({ ...u, costUsd: 0, unpriced: 3 })).toBe('3 unpriced calls')
    expect(conversationCost({ ...u, costUsd: 0, calls: 0 })).toBe('—')
  })

  it('draws the meter against the budget, with the mark at the summary threshold', () => {
    const c: ContextInfo = { conversationId: 'c', model: 'm', window: 8000, windowSource: 'provider', budget: 5000, used: 2500, summaryAt: 4000 }
    const v = meterView(c)
    expect(v.label).toBe('2.5k / 8k tokens')
    expect(v.percent).toBe(50)
    expect(v.mark).toBe(80)
    expect(v.title).toContain('A summary of older messages is made at 4k.')
    expect(v.title).toContain('as the model server reports it')
    const over = meterView({ ...c, used: 6000, windowSource: 'default', summaryId: 's1' })
    expect(over.percent).toBe(100)
    expect(over.title).toContain('summarised on the next turn')
    expect(over.title).toContain('cautious default')
    expect(over.title).toContain('uses a summary')
  })

  it('says what a summary covers', () => {
    expect(summaryCovers({ ...summaryExample, covers: 48, fromAt: '2026-11-03T10:00:00Z', throughAt: '2026-11-27T18:00:00Z' })).toBe(
      'Summary of 48 messages, 3 Nov – 27 Nov',
    )
    expect(summaryCovers({ ...summaryExample, covers: 1, fromAt: '2026-11-03T10:00:00Z', throughAt: '2026-11-03T11:00:00Z' })).toBe(
      'Summary of 1 message, 3 Nov',
    )
  })
})
