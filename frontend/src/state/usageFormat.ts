// How the context meter, a message's usage, a summary's row and the usage
// table say their numbers. Pure.

import type { ContextInfo, ConversationUsage, MessageUsage, Summary, TokenUsage } from '../api'

const grouped = new Intl.NumberFormat('en-US')

/** 950 → "950", 3_100 → "3.1k", 8_000 → "8k", 128_000 → "128k", 1_050_000 → "1.05M". */
export function formatTokens(n: number): string {
  if (n < 1000) return String(Math.round(n))
  if (n < 1_000_000) return `${trimZeros((n / 1000).toFixed(n < 100_000 ? 1 : 0))}k`
  return `${trimZeros((n / 1_000_000).toFixed(2))}M`
}

function trimZeros(s: string): string {
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s
}

/** 1204 → "1,204". */
export function formatCount(n: number): string {
  return grouped.format(Math.round(n))
}

/** US dollars with enough digits to be seen: "$0.012", "$0.0004", "$1.25", "$0". */
export function formatCost(usd: number): string {
  if (usd === 0) return '$0'
  if (usd >= 1) return `$${usd.toFixed(2)}`
  if (usd >= 0.01) return `$${trimZeros(usd.toFixed(3))}`
  return `$${Number(usd.toPrecision(2)).toString()}`
}

export interface MeterView {
  /** "3.1k / 8k tokens" */
  label: string
  /** How much of the budget is used, 0–100 (the bar). */
  percent: number
  /** Where the next summary is made, 0–100 of the budget (the mark). */
  mark: number
  /** The tooltip: the numbers in full, when the next summary happens, where the window comes from. */
  title: string
}

const SOURCES: Record<string, string> = {
  provider: 'as the model server reports it',
  config: 'from model.contextWindow in the settings',
  default: 'a cautious default (the model server does not say; set model.contextWindow)',
}

const pct = (part: number, whole: number) => (whole <= 0 ? 0 : Math.min(100, Math.max(0, (part / whole) * 100)))

/** The meter of a context: used of window, the bar against the budget, and its tooltip. */
export function meterView(c: ContextInfo): MeterView {
  const source = SOURCES[c.windowSource] ?? c.windowSource
  const lines = [
    `${formatCount(c.used)} of ${formatCount(c.budget)} tokens the next turn may send (window ${formatCount(c.window)}, ${source}).`,
    c.used >= c.summaryAt
      ? `Older messages are summarised on the next turn (at ${formatTokens(c.summaryAt)}).`
      : `A summary of older messages is made at ${formatTokens(c.summaryAt)}.`,
  ]
  if (c.summaryId !== undefined && c.summaryId !== '') lines.push('The context uses a summary of the earlier messages.')
  return {
    label: `${formatTokens(c.used)} / ${formatTokens(c.window)} tokens`,
    percent: pct(c.used, c.budget),
    mark: pct(c.summaryAt, c.budget),
    title: lines.join('\n'),
  }
}

/** The conversation's cost, honestly: "$0.012", "$0.012 + 2 unpriced calls", "2 unpriced calls", "—" (no calls). */
export function conversationCost(u: ConversationUsage): string {
  const unpriced = u.unpriced === 0 ? '' : `${u.unpriced} unpriced call${u.unpriced === 1 ? '' : 's'}`
  if (u.calls === 0) return '—'
  if (u.unpriced >= u.calls) return unpriced
  return unpriced === '' ? formatCost(u.costUsd) : `${formatCost(u.costUsd)} + ${unpriced}`
}

/** "1,204 in · 312 out · 800 cached · $0.003" (cache tokens only when there are some; no price: "no price"). */
export function usageLine(m: MessageUsage): string {
  const parts = tokenParts(m.usage)
  parts.push(m.costUsd === null ? 'no price' : formatCost(m.costUsd))
  return parts.join(' · ')
}

export function tokenParts(u: TokenUsage): string[] {
  const parts = [`${formatCount(u.inputTokens)} in`, `${formatCount(u.outputTokens)} out`]
  if (u.cacheReadTokens > 0) parts.push(`${formatCount(u.cacheReadTokens)} cached`)
  if (u.cacheWriteTokens > 0) parts.push(`${formatCount(u.cacheWriteTokens)} cache written`)
  return parts
}

/** "3 Nov" (local), or the text itself when it is not a time. */
export function formatDay(iso: string): string {
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return d.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })
}

/** "Summary of 48 messages, 3 Nov – 27 Nov" (one day: "…, 3 Nov"). */
export function summaryCovers(s: Summary): string {
  const from = formatDay(s.fromAt)
  const through = formatDay(s.throughAt)
  const what = `Summary of ${s.covers} message${s.covers === 1 ? '' : 's'}`
  return from === through ? `${what}, ${from}` : `${what}, ${from} – ${through}`
}
