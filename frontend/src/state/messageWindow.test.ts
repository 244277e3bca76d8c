// The loaded window of a long conversation, through the controller and the
// reducer against the fake server's pages: it opens at the newest page, pages
// older and newer from its ends, stays bounded (the far end is dropped), jumps
// to the page around a message of another branch, and a send from a window
// short of the end goes after the newest page.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiClient, type DisplayMessage, type Message } from '../api'
import { AppStore } from './appStore'
import { bubblesFromMessages } from './chat'
import { ChatController } from './chatController'
import type { ChatState } from './chatView'
import { installFakeBrowser, type FakeBrowser } from './fakeDom.test-util'
import { BASE_URL, FakeServer, json, messagePage } from './fakeServer.test-util'
import { MAX_LOADED, PAGE_SIZE, pageCursor, withPage } from './messageWindow'
import { ReplyStore } from './replyStore'

const CONV = 'c1'
const mid = (i: number) => `m${String(i).padStart(5, '0')}`

/** n messages, a user question and its reply in turn; each reply has a run and a display row. */
function history(n: number): { messages: Message[]; display: DisplayMessage[] } {
  const messages: Message[] = []
  const display: DisplayMessage[] = []
  for (let i = 0; i < n; i++) {
    const tree = { parentId: i === 0 ? null : mid(i - 1), siblingIds: [mid(i)], siblingIndex: 0, depth: i }
    if (i % 2 === 0) {
      messages.push({ ...tree, id: mid(i), role: 'user', text: `q${i}`, timestamp: i })
      continue
    }
    messages.push({ ...tree, id: mid(i), role: 'assistant', text: `a${i}`, timestamp: i, runId: `r${i}`, status: 'ended' })
    display.push({
      id: `d${i}`,
      conversationId: CONV,
      runId: `r${i}`,
      messageType: 'tool',
      contentType: 'tool_call',
      content: { callId: `k${i}`, name: 'PLAY_EMOTE', arguments: {} },
      status: 'completed',
      createdAt: i,
      updatedAt: i,
    })
  }
  return { messages, display }
}

const ids = (chat: ChatState) => chat.messages.map((m) => m.id)
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => mid(from + i))

describe('the loaded window of a long conversation', () => {
  let browser: FakeBrowser
  beforeEach(() => {
    browser = installFakeBrowser()
  })
  afterEach(() => {
    browser.uninstall()
    vi.restoreAllMocks()
  })

  function setup(n: number) {
    const server = new FakeServer()
    const { messages, display } = history(n)
    server.messages.set(CONV, messages)
    server.display.set(CONV, display)
    const api = new ApiClient({ baseURL: BASE_URL, fetch: server.fetch })
    const app = new AppStore()
    const chat = new ChatController({ app, api: () => api, sendWs: () => undefined, replies: new ReplyStore(() => () => undefined) })
    const state = () => app.get().chat
    return { server, chat, state }
  }

  /** Lets every request answered so far reach the store. */
  const flush = async () => {
    for (let i = 0; i < 20; i++) await new Promise((r) => setTimeout(r, 0))
  }

  it('opens at the newest page, with the display rows of its runs', async () => {
    const { chat, state, server } = setup(1000)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    expect(server.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /api/conversations/${CONV}/messages?limit=${PAGE_SIZE}`])
    expect(ids(state())).toEqual(range(900, 1000))
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: false })
    expect(state().display.map((d) => d.runId)).toEqual(range(900, 1000).filter((_, i) => i % 2 === 1).map((m) => `r${Number(m.slice(1))}`))
  })

  it('pages older from its first message, one page at a time, to the first message', async () => {
    const { chat, state, server } = setup(250)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    chat.page('older')
    chat.page('older')
    await vi.waitFor(() => expect(state().messages).toHaveLength(200))
    expect(server.count('GET', `/api/conversations/${CONV}/messages?before=${mid(150)}&limit=${PAGE_SIZE}`)).toBe(1)
    expect(ids(state())).toEqual(range(50, 250))
    chat.page('older')
    await vi.waitFor(() => expect(state().messages).toHaveLength(250))
    expect(state()).toMatchObject({ hasOlder: false, hasNewer: false })
    expect(ids(state())).toEqual(range(0, 250))
    // Nothing before the first message.
    const asked = server.requests.length
    chat.page('older')
    await flush()
    expect(server.requests.length).toBe(asked)
  })

  it('stays bounded: paging on drops the far end, and pages it back from the other side', async () => {
    const { chat, state } = setup(1000)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    for (let n = 200; n <= MAX_LOADED; n += PAGE_SIZE) {
      chat.page('older')
      await vi.waitFor(() => expect(state().messages).toHaveLength(n))
    }
    chat.page('older')
    await vi.waitFor(() => expect(ids(state())[0]).toBe(mid(600)))
    expect(ids(state())).toEqual(range(600, 900))
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: true })
    // The display rows of the dropped runs went with them.
    expect(state().display.every((d) => Number(d.runId?.slice(1)) >= 600 && Number(d.runId?.slice(1)) < 900)).toBe(true)
    chat.page('newer')
    await vi.waitFor(() => expect(ids(state()).at(-1)).toBe(mid(999)))
    expect(ids(state())).toEqual(range(700, 1000))
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: false })
  })

  it('jumps to the page around a message far up (its branch shown first), and pages down from there', async () => {
    const { chat, state, server } = setup(1000)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    const seq = state().windowSeq
    chat.show(CONV, mid(10))
    expect(state().loading).toBe(true)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    const asked = server.requests.slice(-2).map((r) => `${r.method} ${r.path}`)
    expect(asked).toEqual([`PUT /api/conversations/${CONV}/branch`, `GET /api/conversations/${CONV}/messages?around=${mid(10)}&limit=${PAGE_SIZE}`])
    expect(server.requests.at(-2)?.body).toEqual({ messageId: mid(10) })
    expect(ids(state())).toEqual(range(0, 100))
    expect(state()).toMatchObject({ hasOlder: false, hasNewer: true })
    expect(state().windowSeq).toBeGreaterThan(seq)
    chat.page('newer')
    await vi.waitFor(() => expect(state().messages).toHaveLength(200))
    expect(server.requests.at(-1)?.path).toBe(`/api/conversations/${CONV}/messages?after=${mid(99)}&limit=${PAGE_SIZE}`)
    // A message already loaded is only scrolled to: nothing is asked.
    const count = server.requests.length
    chat.show(CONV, mid(150))
    await flush()
    expect(server.requests.length).toBe(count)
    expect(state().loading).toBe(false)
  })

  it('shows another version far up at the page around it, not at the newest page', async () => {
    const { chat, state, server } = setup(1000)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    server.branch = (id) => json(200, messagePage(server.messages.get(id) ?? [], 900, 1000))
    await expect(chat.showBranch(mid(10))).resolves.toBe(true)
    expect(server.requests.slice(-2).map((r) => `${r.method} ${r.path}`)).toEqual([
      `PUT /api/conversations/${CONV}/branch`,
      `GET /api/conversations/${CONV}/messages?around=${mid(10)}&limit=${PAGE_SIZE}`,
    ])
    expect(ids(state())).toEqual(range(0, 100))
    expect(state()).toMatchObject({ hasOlder: false, hasNewer: true })
    // A version on the newest page is shown from the branch's answer alone.
    const asked = server.requests.length
    await expect(chat.showBranch(mid(950))).resolves.toBe(true)
    expect(server.requests.length).toBe(asked + 1)
    expect(ids(state())).toEqual(range(900, 1000))
    expect(state()).toMatchObject({ hasOlder: true, hasNewer: false })
  })

  it('opens another conversation at the page around a message', async () => {
    const { chat, state, server } = setup(1000)
    chat.open(null)
    chat.show(CONV, mid(500))
    expect(state()).toMatchObject({ conversationId: CONV, loading: true })
    await vi.waitFor(() => expect(state().loading).toBe(false))
    expect(ids(state())).toEqual(range(450, 550))
    expect(server.count('GET', `/api/conversations/${CONV}/messages?limit=${PAGE_SIZE}`)).toBe(0)
  })

  it('sends after the newest page when the window ends short of the branch', async () => {
    const { chat, state, server } = setup(1000)
    chat.open(CONV)
    await vi.waitFor(() => expect(state().loading).toBe(false))
    chat.show(CONV, mid(10))
    await vi.waitFor(() => expect(state()).toMatchObject({ loading: false, hasNewer: true }))
    expect(chat.send('hello')).toBe(true)
    await vi.waitFor(() => expect(server.sends).toHaveLength(1))
    const texts = state().messages.map((m) => m.text)
    expect(texts.slice(0, 2)).toEqual(['q900', 'a901'])
    expect(texts.slice(-2)).toEqual(['hello', ''])
    expect(state().hasNewer).toBe(false)
    server.sends[0]!.end()
  })
})

describe('withPage', () => {
  const base = (messages: Message[], more: Partial<ChatState> = {}): ChatState => ({
    conversationId: CONV,
    session: 1,
    loading: false,
    loadError: null,
    messages: bubblesFromMessages(messages),
    display: [],
    summaries: [],
    proactive: [],
    hasOlder: true,
    hasNewer: false,
    windowSeq: 1,
    ...more,
  })
  const page = (hasOlder: boolean) => ({ hasOlder, hasNewer: false, branchLength: 0, displayMessages: [], summaries: [] })

  it('drops a page fetched for a window that has moved meanwhile', () => {
    const { messages } = history(300)
    const chat = base(messages.slice(200))
    expect(pageCursor(chat, 'older')).toBe(mid(200))
    expect(pageCursor(chat, 'newer')).toBeNull()
    const older = messages.slice(100, 200)
    expect(withPage(chat, 'older', mid(250), page(true), bubblesFromMessages(older))).toBe(chat)
    const joined = withPage(chat, 'older', mid(200), page(true), bubblesFromMessages(older))
    expect(ids(joined)).toEqual(range(100, 300))
  })

  it('keeps a reply being written rather than drop it past the bound', () => {
    const { messages } = history(MAX_LOADED + PAGE_SIZE)
    const chat = base(messages.slice(PAGE_SIZE))
    const last = chat.messages.length - 1
    chat.messages[last] = { ...chat.messages[last]!, status: 'streaming' }
    const older = messages.slice(0, PAGE_SIZE)
    const joined = withPage(chat, 'older', mid(PAGE_SIZE), page(false), bubblesFromMessages(older))
    expect(joined.messages).toHaveLength(MAX_LOADED + PAGE_SIZE)
    expect(joined).toMatchObject({ hasOlder: false, hasNewer: false })
  })
})
