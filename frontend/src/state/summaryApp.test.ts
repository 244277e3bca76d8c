// The whole app (fake server, no layout) on a conversation with a summary:
// the row "Earlier in this conversation" follows the message it runs through,
// collapsed until its button is pressed; a turn that summarises first streams
// its summary into a row of its own before the reply; the meter in the
// toolbar shows the context and moves when the reply ends, and the reply then
// says what it cost; another window's undo removes the row.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Summary } from '../api'
import { summaryExample } from '../api/summaries.test-util'
import { startApp, type MountedApp } from './appHarness.test-util'
import { click } from './fakeEvents.test-util'
import { FakeServer, json } from './fakeServer.test-util'
import type { BareMessage } from './messages.test-util'
import { FIRST_ROWS } from '../components/useMessageWindow'

vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))
vi.mock('../components/SettingsPanel', () => ({ SettingsPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))

const CONV = 'c1'
const at = '2026-11-27T09:00:00.000Z'
const mid = (i: number) => `m${String(i).padStart(4, '0')}`
const history: BareMessage[] = Array.from({ length: 40 }, (_, i) => ({
  id: mid(i),
  role: i % 2 === 0 ? 'user' : 'assistant',
  text: `message ${i}`,
  timestamp: i,
  ...(i % 2 === 1 ? { runId: `run-${i}`, status: 'ended' as const } : {}),
  ...(i === 37 ? { usage: { model: 'local', usage: { inputTokens: 2048, outputTokens: 64, cacheReadTokens: 1024, cacheWriteTokens: 0, promptTokens: 2048, completionTokens: 64, totalTokens: 2112 }, costUsd: null } } : {}),
}))
const summary = (id: string, through: number, over: Partial<Summary> = {}): Summary => ({
  ...summaryExample,
  id,
  conversationId: CONV,
  throughId: mid(through),
  covers: through + 1,
  ...over,
})

describe('summaries and the context meter in the app', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  function server(): { s: FakeServer; used: { now: number } } {
    const s = new FakeServer()
    const used = { now: 3100 }
    s.conversations = [{ id: CONV, title: 'Trip', roomId: '', createdAt: at, updatedAt: at, unread: false }]
    s.messages.set(CONV, history)
    s.summaries.set(CONV, [summary('s1', 36)])
    s.extra = (method, path) => {
      if (method === 'GET' && path === `/api/conversations/${CONV}/context`) {
        return json(200, { conversationId: CONV, model: 'fake', window: 8000, windowSource: 'provider', budget: 5000, used: used.now, summaryAt: 4000 })
      }
      if (method === 'GET' && path === `/api/conversations/${CONV}/usage`) {
        return json(200, { conversationId: CONV, usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 1, completionTokens: 1, totalTokens: 2 }, costUsd: 0, unpriced: 2, calls: 2 })
      }
      return null
    }
    return { s, used }
  }

  const one = (a: MountedApp, testId: string) => {
    const found = a.root.byTestId(testId)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }

  it('shows the summary after its message, collapsed, and opens it', async () => {
    const { s } = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: FIRST_ROWS, rows: 1 }))
    const row = one(a, 'summary-row')
    expect(row.previousSibling && (row.previousSibling as typeof row).getAttribute('data-message-id')).toBe(mid(36))
    expect(one(a, 'summary-covers').textContent).toContain('Summary of 37 messages')
    // A saved reply says what it cost (its model has no price here).
    const usage = a.root.byTestId('message').find((m) => m.getAttribute('data-message-id') === mid(37))?.byTestId('message-usage')
    expect(usage?.map((u) => u.textContent)).toEqual(['2,048 in · 64 out · 1,024 cached · no price'])
    expect(a.root.byTestId('message-usage')).toHaveLength(1)
    const toggle = one(a, 'summary-toggle')
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(one(a, 'summary-text').hasAttribute('hidden')).toBe(true)
    await a.act(() => click(a.root, toggle))
    expect(one(a, 'summary-toggle').getAttribute('aria-expanded')).toBe('true')
    expect(one(a, 'summary-text').hasAttribute('hidden')).toBe(false)
    expect(one(a, 'summary-text').textContent).toBe(summaryExample.text)
  })

  it('shows the meter and the honest cost, and moves it when a reply ends', async () => {
    const { s, used } = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: FIRST_ROWS, rows: 1 }))
    await a.until(() => a.root.byTestId('context-meter').length === 1, 'the meter')
    expect(one(a, 'context-meter-label').textContent).toBe('3.1k / 8k tokens')
    expect(one(a, 'context-meter').getAttribute('title')).toContain('A summary of older messages is made at 4k.')
    expect(one(a, 'conversation-cost').textContent).toBe('2 unpriced calls')

    await a.act(() => void a.chat().send('one more'))
    await a.until(() => s.sends.length === 1, 'the send')
    const feed = s.sends[0]!
    const fresh = summary('s2', 38, { status: 'streaming', text: '' })
    await a.act(() => feed.send(1, { type: 'summary_start', summary: fresh }))
    await a.act(() => feed.send(2, { type: 'summary_delta', summaryId: 's2', text: 'They planned ' }))
    await a.act(() => a.frames.run())
    const live = a.root.byTestId('summary-row').find((r) => r.getAttribute('data-summary-id') === 's2')
    expect(live?.getAttribute('data-status')).toBe('streaming')
    // Being written, its text shows as it arrives.
    expect(live?.byTestId('summary-text')[0]?.hasAttribute('hidden')).toBe(false)
    expect(live?.byTestId('summary-text')[0]?.textContent).toBe('They planned ')

    used.now = 4400
    // The server saves the reply with what it cost.
    const cost = { model: 'fake', usage: { inputTokens: 1204, outputTokens: 312, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 1204, completionTokens: 312, totalTokens: 1516 }, costUsd: 0.003 }
    s.messages.set(CONV, [
      ...history,
      { id: 'u-new', role: 'user', text: 'one more', timestamp: 50 },
      { id: 'a-new', role: 'assistant', text: 'Sure.', timestamp: 51, runId: 'run-1', status: 'ended', usage: cost },
    ])
    await a.act(() => feed.send(3, { type: 'summary_end', summary: { ...fresh, status: 'done', text: 'They planned a trip.' } }))
    await a.act(() => feed.send(4, { type: 'token', text: 'Sure.' }))
    await a.act(() => feed.send(5, { type: 'done', fullText: 'Sure.', agentName: 'Wisp', runId: 'run-1', messageId: 'a-new', actionCallbackHistory: [] }))
    await a.act(() => a.frames.run())
    await a.until(() => one(a, 'context-meter').getAttribute('data-used') === '4400', 'the meter to move')
    // The reply that ended says what it cost, read from its saved message.
    await a.until(() => a.root.byTestId('message-usage').some((u) => u.textContent === '1,204 in · 312 out · $0.003'), 'the reply usage')
    expect(s.count('GET', `/api/conversations/${CONV}/messages?around=a-new&limit=1`)).toBe(1)
    const done = a.root.byTestId('summary-row').find((r) => r.getAttribute('data-summary-id') === 's2')
    expect(done?.getAttribute('data-status')).toBe('done')
    expect(done?.byTestId('summary-toggle')[0]?.getAttribute('aria-expanded')).toBe('false')
    expect(done?.byTestId('summary-text')[0]?.textContent).toBe('They planned a trip.')
  })

  it("removes the row when another window undoes it, and reads the meter again", async () => {
    const { s, used } = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: FIRST_ROWS, rows: 1 }))
    await a.until(() => a.root.byTestId('context-meter').length === 1, 'the meter')
    used.now = 5200
    await a.act(() =>
      a.sockets[0]!.receive({ type: 'conversation-summary', conversationId: CONV, summary: summary('s1', 36, { status: 'undone' }) }),
    )
    expect(a.root.byTestId('summary-row')).toHaveLength(0)
    await a.until(() => one(a, 'context-meter').getAttribute('data-used') === '5200', 'the meter to move')
  })

  it('shows a failed summary and offers Regenerate, which posts and streams', async () => {
    const { s } = server()
    s.summaries.set(CONV, [summary('s1', 36, { status: 'failed', error: 'the model is down', text: '' })])
    const posted: string[] = []
    const base = s.extra
    s.extra = (method, path, body) => {
      if (method === 'POST' && path.endsWith('/summaries/s1/regenerate')) {
        posted.push(path)
        return json(202, { runId: 'run-s', summary: summary('s1', 36, { status: 'streaming', text: '' }) })
      }
      return base(method, path, body)
    }
    const a = (app = await startApp(s, { id: CONV, bubbles: FIRST_ROWS, rows: 1 }))
    expect(one(a, 'summary-error').textContent).toContain('the model is down')
    expect(a.root.byTestId('summary-undo')).toHaveLength(0)
    const { SseFeed } = await import('./fakeServer.test-util')
    const feed = new SseFeed('/api/runs/run-s/stream')
    s.runAnswers.push({ kind: 'stream', feed })
    await a.act(() => click(a.root, one(a, 'summary-regenerate')))
    await a.until(() => posted.length === 1 && s.count('GET', '/api/runs/run-s/stream') === 1, 'the regenerate')
    expect(one(a, 'summary-row').getAttribute('data-status')).toBe('streaming')
    await a.act(() => feed.send(1, { type: 'summary_end', summary: summary('s1', 36, { text: 'Again.' }) }))
    await a.until(() => one(a, 'summary-row').getAttribute('data-status') === 'done', 'the new summary')
    expect(a.root.byTestId('summary-error')).toHaveLength(0)
  })
})
