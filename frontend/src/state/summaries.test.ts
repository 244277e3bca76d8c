// The summaries of older messages: where their rows go in the message window
// (after the message they run through, across pages and the window's bound),
// how a turn's summary_start/delta/end and /ws frames change them, and the
// rows' Regenerate and Undo.

import { describe, expect, it } from 'vitest'
import type { ApiClient, ChatFrame, MessagePage, SeqFrame, Summary } from '../api'
import { summaryExample } from '../api/summaries.test-util'
import { AppStore } from './appStore'
import { bubblesFromMessages, chatReducer, initialChat, type ChatState } from './chat'
import { ManualFrames } from './frames.test-util'
import { MAX_LOADED, PAGE_SIZE, summariesByMessage, summariesOfWindow } from './messageWindow'
import { onBranch, type BareMessage } from './messages.test-util'
import { SummaryController, SummaryLive } from './summaries'

const CONV = 'c1'
const mid = (i: number) => `m${String(i).padStart(4, '0')}`
const history: BareMessage[] = Array.from({ length: 400 }, (_, i) => ({
  id: mid(i),
  role: i % 2 === 0 ? 'user' : 'assistant',
  text: `message ${i}`,
  timestamp: i,
}))
const all = onBranch(history)
const summary = (id: string, through: number, over: Partial<Summary> = {}): Summary => ({
  ...summaryExample,
  id,
  conversationId: CONV,
  throughId: mid(through),
  covers: through + 1,
  ...over,
})

function page(start: number, end: number, summaries: Summary[]): MessagePage {
  return { messages: all.slice(start, end), hasOlder: start > 0, hasNewer: end < all.length, branchLength: all.length, displayMessages: [], summaries }
}

/** The chat with the page from start to end loaded. */
function loaded(start: number, end: number, summaries: Summary[]): ChatState {
  const open = chatReducer(initialChat, { type: 'chat-open', session: 1, conversationId: CONV })
  const p = page(start, end, summaries)
  return chatReducer(open, { type: 'chat-loaded', session: 1, messages: p.messages, display: [], page: { hasOlder: p.hasOlder, hasNewer: p.hasNewer }, summaries })
}

const through = (chat: ChatState) => chat.summaries.map((s) => `${s.id}@${s.throughId}`)

describe('summaries in the message window', () => {
  it("keeps a loaded page's summaries in the order of their messages", () => {
    const chat = loaded(300, 400, [summary('b', 350), summary('a', 310)])
    expect(through(chat)).toEqual([`a@${mid(310)}`, `b@${mid(350)}`])
    expect([...summariesByMessage(chat.summaries).keys()]).toEqual([mid(310), mid(350)])
  })

  it('leaves out a summary whose message is not loaded, or that is undone', () => {
    const chat = loaded(300, 400, [summary('a', 20), summary('u', 320, { status: 'undone' }), summary('b', 399)])
    expect(through(chat)).toEqual([`b@${mid(399)}`])
  })

  it('adds the summaries of a page joining above, and drops them with the far end beyond the bound', () => {
    let chat = loaded(300, 400, [summary('new', 390)])
    chat = chatReducer(chat, { type: 'chat-page', session: 1, side: 'older', cursor: mid(300), page: page(200, 300, [summary('mid', 250)]) })
    expect(through(chat)).toEqual([`mid@${mid(250)}`, `new@${mid(390)}`])
    chat = chatReducer(chat, { type: 'chat-page', session: 1, side: 'older', cursor: mid(200), page: page(100, 200, []) })
    chat = chatReducer(chat, { type: 'chat-page', session: 1, side: 'older', cursor: mid(100), page: page(0, 100, [summary('old', 20)]) })
    expect(chat.messages).toHaveLength(MAX_LOADED)
    // The newest page went (past MAX_LOADED), and its summary with it.
    expect(through(chat)).toEqual([`old@${mid(20)}`, `mid@${mid(250)}`])
    chat = chatReducer(chat, { type: 'chat-page', session: 1, side: 'newer', cursor: mid(299), page: page(300, 400, [summary('new', 390)]) })
    expect(through(chat)).toEqual([`mid@${mid(250)}`, `new@${mid(390)}`])
  })

  it('takes a summary once whatever page brought it, the newest copy winning', () => {
    const rows = summariesOfWindow(bubblesFromMessages(all.slice(0, PAGE_SIZE)), [summary('a', 10), summary('a', 10, { text: 'newer' })])
    expect(rows.map((s) => s.text)).toEqual(['newer'])
  })

  it('adds, changes and removes a summary of the open conversation only', () => {
    let chat = loaded(300, 400, [])
    chat = chatReducer(chat, { type: 'chat-summary', summary: summary('s', 360, { status: 'streaming', text: '' }) })
    expect(chat.summaries.map((s) => s.status)).toEqual(['streaming'])
    chat = chatReducer(chat, { type: 'chat-summary', summary: summary('s', 360, { text: 'done' }) })
    expect(chat.summaries.map((s) => [s.status, s.text])).toEqual([['done', 'done']])
    expect(chatReducer(chat, { type: 'chat-summary', summary: { ...summary('x', 360), conversationId: 'other' } })).toBe(chat)
    chat = chatReducer(chat, { type: 'chat-summary', summary: summary('s', 360, { status: 'undone' }) })
    expect(chat.summaries).toEqual([])
  })
})

/** A page's controller over an app store with the window loaded, and an API the test scripts. */
function harness(summaries: Summary[]) {
  const app = new AppStore()
  app.dispatch({ type: 'chat-open', session: 1, conversationId: CONV })
  const p = page(300, 400, summaries)
  app.dispatch({ type: 'chat-loaded', session: 1, messages: p.messages, display: [], page: { hasOlder: true, hasNewer: false }, summaries })
  const frames = new ManualFrames()
  const live = new SummaryLive(frames.schedule)
  const calls: string[] = []
  const changed: string[] = []
  let reloads = 0
  let ended = false
  let feed: (frame: ChatFrame) => void = () => undefined
  let close: () => void = () => undefined
  const stream = async function* (): AsyncGenerator<SeqFrame, void, undefined> {
    const queue: ChatFrame[] = []
    let done = false
    let wake: () => void = () => undefined
    feed = (f) => {
      queue.push(f)
      wake()
    }
    close = () => {
      done = true
      wake()
    }
    for (;;) {
      const f = queue.shift()
      if (f !== undefined) {
        yield { seq: null, frame: f }
        continue
      }
      if (done) return
      await new Promise<void>((r) => (wake = r))
    }
  }
  const api = {
    context: {
      regenerateSummary: async (c: string, s: string) => {
        calls.push(`regenerate ${c} ${s}`)
        return { runId: 'run-r', summary: { ...summaries.find((x) => x.id === s)!, status: 'streaming' as const, text: '' } }
      },
      streamSummary: async (runId: string) => {
        calls.push(`stream ${runId}`)
        return ended ? { runId, runEnded: true, frames: (async function* () {})() } : { runId, runEnded: false, frames: stream() }
      },
      undoSummary: async (c: string, s: string) => {
        calls.push(`undo ${c} ${s}`)
        return { ...summaries.find((x) => x.id === s)!, status: 'undone' as const }
      },
    },
  } as unknown as ApiClient
  const ctl = new SummaryController({ app, api: () => api, live, changed: (id) => changed.push(id), reload: () => reloads++ })
  const settle = () => new Promise<void>((r) => setTimeout(r, 0))
  return {
    app,
    live,
    frames,
    ctl,
    calls,
    changed,
    feed: (f: ChatFrame) => feed(f),
    close: () => close(),
    settle,
    reloads: () => reloads,
    runEnded: () => (ended = true),
  }
}

describe('SummaryController', () => {
  it("shows a turn's summary as it is written: start, deltas (once per frame), end", () => {
    const h = harness([])
    const s = summary('s1', 380, { status: 'streaming', text: '' })
    h.ctl.take({ type: 'summary_start', summary: s })
    expect(h.app.get().chat.summaries.map((x) => x.status)).toEqual(['streaming'])
    expect(h.live.get().text.get('s1')).toBe('')
    h.ctl.take({ type: 'summary_delta', summaryId: 's1', text: 'They ' })
    h.ctl.take({ type: 'summary_delta', summaryId: 's1', text: 'planned' })
    expect(h.live.get().text.get('s1')).toBe('')
    h.frames.run()
    expect(h.live.get().text.get('s1')).toBe('They planned')
    h.ctl.take({ type: 'summary_delta', summaryId: 's1', text: ' a trip' })
    h.ctl.take({ type: 'summary_end', summary: { ...s, status: 'done', text: 'They planned a trip' } })
    expect(h.live.get().text.has('s1')).toBe(false)
    expect(h.app.get().chat.summaries.map((x) => [x.status, x.text])).toEqual([['done', 'They planned a trip']])
    expect(h.changed).toEqual([CONV])
  })

  it('shows a failed summary with its error', () => {
    const h = harness([])
    const s = summary('s1', 380, { status: 'streaming', text: '' })
    h.ctl.take({ type: 'summary_start', summary: s })
    h.ctl.take({ type: 'summary_end', summary: { ...s, status: 'failed', error: 'the model is down' } })
    expect(h.app.get().chat.summaries.map((x) => [x.status, x.error])).toEqual([['failed', 'the model is down']])
  })

  it("takes another window's summary from /ws, and an undone one removes the row", () => {
    const h = harness([summary('s1', 380)])
    h.ctl.received({ type: 'conversation-summary', conversationId: CONV, summary: summary('s2', 390) })
    expect(through(h.app.get().chat)).toEqual([`s1@${mid(380)}`, `s2@${mid(390)}`])
    h.ctl.received({ type: 'conversation-summary', conversationId: CONV, summary: summary('s1', 380, { status: 'undone' }) })
    expect(through(h.app.get().chat)).toEqual([`s2@${mid(390)}`])
    expect(h.changed).toEqual([CONV, CONV])
  })

  it('regenerates: the row streams the new text from the run, then shows it', async () => {
    const h = harness([summary('s1', 380)])
    h.ctl.regenerate('s1')
    await h.settle()
    expect(h.calls).toEqual([`regenerate ${CONV} s1`, 'stream run-r'])
    expect(h.live.get().busy.has('s1')).toBe(true)
    expect(h.app.get().chat.summaries[0]?.status).toBe('streaming')
    h.feed({ type: 'summary_delta', summaryId: 's1', text: 'Anew' })
    await h.settle()
    h.frames.run()
    expect(h.live.get().text.get('s1')).toBe('Anew')
    h.feed({ type: 'summary_end', summary: summary('s1', 380, { text: 'Anew.' }) })
    await h.settle()
    expect(h.live.get().busy.has('s1')).toBe(false)
    expect(h.app.get().chat.summaries.map((x) => [x.status, x.text])).toEqual([['done', 'Anew.']])
  })

  it('reads the conversation again when the run had ended before its stream was read', async () => {
    const h = harness([summary('s1', 380)])
    h.runEnded()
    h.ctl.regenerate('s1')
    await h.settle()
    expect(h.calls).toEqual([`regenerate ${CONV} s1`, 'stream run-r'])
    expect(h.reloads()).toBe(1)
    expect(h.live.get().busy.has('s1')).toBe(false)
  })

  it('does not read it again when the stream said how the summary ended', async () => {
    const h = harness([summary('s1', 380)])
    h.ctl.regenerate('s1')
    await h.settle()
    h.feed({ type: 'summary_end', summary: summary('s1', 380, { status: 'failed', error: 'no' }) })
    await h.settle()
    expect(h.reloads()).toBe(0)
    expect(h.app.get().chat.summaries[0]?.status).toBe('failed')
  })

  it('undoes: the row goes, and the meter is read again', async () => {
    const h = harness([summary('s1', 380)])
    h.ctl.undo('s1')
    await h.settle()
    expect(h.calls).toEqual([`undo ${CONV} s1`])
    expect(h.app.get().chat.summaries).toEqual([])
    expect(h.changed).toEqual([CONV])
  })

  it('does nothing for a summary the window does not show', async () => {
    const h = harness([summary('s1', 380)])
    h.ctl.undo('nope')
    h.ctl.regenerate('nope')
    await h.settle()
    expect(h.calls).toEqual([])
  })
})
