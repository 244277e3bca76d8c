// The context meter: read when a conversation opens, again when its reply
// ends and when its summaries change; an answer for a conversation no longer
// open is dropped; a failed read keeps the numbers it had, with why.

import { describe, expect, it } from 'vitest'
import { ApiError, type ApiClient, type ContextInfo, type ConversationUsage } from '../api'
import { AppStore } from './appStore'
import { ContextMeter } from './contextMeter'

const usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, promptTokens: 0, completionTokens: 0, totalTokens: 0 }
const info = (conversationId: string, used: number): ContextInfo => ({
  conversationId,
  model: 'm',
  window: 8000,
  windowSource: 'provider',
  budget: 5000,
  used,
  summaryAt: 4000,
})

function harness() {
  const app = new AppStore()
  const reads: string[] = []
  const used = new Map<string, number>()
  const waiting: (() => void)[] = []
  let hold = false
  let fail = false
  const api = {
    context: {
      getContext: async (id: string): Promise<ContextInfo> => {
        reads.push(id)
        if (hold) await new Promise<void>((r) => waiting.push(r))
        if (fail) throw new ApiError(0, 'cannot reach the Wisp server')
        return info(id, used.get(id) ?? 0)
      },
      getConversationUsage: async (id: string): Promise<ConversationUsage> => ({ conversationId: id, usage, costUsd: 0.5, unpriced: 0, calls: 2 }),
    },
  } as unknown as ApiClient
  const meter = new ContextMeter(() => api)
  meter.follow(app)
  const settle = () => new Promise<void>((r) => setTimeout(r, 0))
  return {
    app,
    meter,
    reads,
    used,
    settle,
    hold: (on: boolean) => (hold = on),
    fail: (on: boolean) => (fail = on),
    release: () => waiting.splice(0).forEach((r) => r()),
  }
}

/** Opens conversation id with one exchange loaded. */
function open(app: AppStore, id: string, session: number): void {
  app.dispatch({ type: 'chat-open', session, conversationId: id })
  app.dispatch({ type: 'chat-loaded', session, messages: [], display: [] })
}

describe('ContextMeter', () => {
  it('reads the meter and the cost of the conversation opened', async () => {
    const h = harness()
    h.used.set('c1', 3100)
    open(h.app, 'c1', 1)
    await h.settle()
    expect(h.reads).toEqual(['c1'])
    expect(h.meter.get()).toMatchObject({ conversationId: 'c1', context: { used: 3100 }, usage: { costUsd: 0.5 }, error: null })
    open(h.app, 'c1', 2) // opened again: same conversation, no new read
    await h.settle()
    expect(h.reads).toEqual(['c1'])
  })

  it('reads it again when a reply ends, and the numbers move', async () => {
    const h = harness()
    open(h.app, 'c1', 1)
    await h.settle()
    h.app.dispatch({ type: 'chat-sent', session: 1, userKey: 'u', replyKey: 'r', text: 'hello', ts: 1 })
    await h.settle()
    expect(h.reads).toEqual(['c1'])
    h.used.set('c1', 4200)
    h.app.dispatch({
      type: 'chat-frame',
      session: 1,
      key: 'r',
      seq: 1,
      frame: { type: 'done', fullText: 'hi', agentName: 'Wisp', runId: 'run', messageId: 'a1', actionCallbackHistory: [] },
    })
    await h.settle()
    expect(h.reads).toEqual(['c1', 'c1'])
    expect(h.meter.get().context?.used).toBe(4200)
  })

  it("reads it again when a summary of the conversation shown changes, not another's", async () => {
    const h = harness()
    open(h.app, 'c1', 1)
    await h.settle()
    h.meter.summaryChanged('c2')
    h.meter.summaryChanged('c1')
    await h.settle()
    expect(h.reads).toEqual(['c1', 'c1'])
  })

  it('drops the answer for a conversation no longer open, and shows none for a new chat', async () => {
    const h = harness()
    h.hold(true)
    open(h.app, 'c1', 1)
    await h.settle()
    h.hold(false)
    h.used.set('c2', 900)
    open(h.app, 'c2', 2)
    await h.settle()
    h.release()
    await h.settle()
    expect(h.meter.get()).toMatchObject({ conversationId: 'c2', context: { conversationId: 'c2', used: 900 } })
    h.app.dispatch({ type: 'chat-open', session: 3, conversationId: null })
    await h.settle()
    expect(h.meter.get()).toEqual({ conversationId: null, context: null, usage: null, error: null })
  })

  it('keeps what it showed when a read fails, and says why', async () => {
    const h = harness()
    h.used.set('c1', 1000)
    open(h.app, 'c1', 1)
    await h.settle()
    h.fail(true)
    await h.meter.refresh()
    expect(h.meter.get()).toMatchObject({ context: { used: 1000 }, error: 'cannot reach the Wisp server' })
  })
})

describe('the page’s meter', () => {
  it('is read again when a model setting changes, not for others', async () => {
    const { installFakeBrowser } = await import('./fakeDom.test-util')
    const browser = installFakeBrowser()
    try {
      const { WispPage } = await import('./wispPage')
      const page = new WispPage()
      const reads: string[] = []
      const api = {
        context: {
          getContext: async (id: string) => (reads.push(id), info(id, 10)),
          getConversationUsage: async (id: string) => ({ conversationId: id, usage, costUsd: 0, unpriced: 0, calls: 0 }),
        },
      } as unknown as ApiClient
      page.api.set(api)
      page.app.dispatch({ type: 'chat-open', session: 1, conversationId: 'c1' })
      await new Promise<void>((r) => setTimeout(r, 0))
      expect(reads).toEqual(['c1'])
      page.events.configChanged.emit(['ui.theme'])
      page.events.configChanged.emit(['model.contextWindow'])
      await new Promise<void>((r) => setTimeout(r, 0))
      expect(reads).toEqual(['c1', 'c1'])
    } finally {
      browser.uninstall()
    }
  })
})
