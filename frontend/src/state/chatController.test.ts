// The chat controller outside React: a plain object over the app store, a
// fake API client and a recorded socket.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiClient, ClientMessage, Message, MessagePage } from '../api'
import { AppStore } from './appStore'
import { ChatController } from './chatController'
import { installFakeBrowser, type FakeBrowser } from './fakeDom.test-util'
import { ReplyStore } from './replyStore'
import { onBranch } from './messages.test-util'

const saved = onBranch([
  { id: 'u1', role: 'user', text: 'hi', timestamp: 1 },
  { id: 'a1', role: 'assistant', text: 'hello', timestamp: 2, runId: 'r1', status: 'ended' },
])
const page = (messages: Message[]): MessagePage => ({
  messages,
  hasOlder: false,
  hasNewer: false,
  branchLength: messages.length,
  displayMessages: [],
  summaries: [],
})

describe('ChatController', () => {
  let browser: FakeBrowser
  beforeEach(() => {
    browser = installFakeBrowser()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(() => {
    browser.uninstall()
    vi.restoreAllMocks()
  })

  function setup(api: Partial<ApiClient> | null) {
    const app = new AppStore()
    const ws: ClientMessage[] = []
    const chat = new ChatController({
      app,
      api: () => (api === null ? null : (api as ApiClient)),
      sendWs: (msg) => ws.push(msg),
      replies: new ReplyStore(() => () => undefined),
    })
    return { app, ws, chat }
  }

  it('opens a conversation: the URL, the socket and the store follow', async () => {
    const { app, ws, chat } = setup({ listMessages: async () => page(saved) })
    chat.open('c1')
    expect(browser.location.hash).toBe('#/c/c1')
    expect(ws).toEqual([{ type: 'active-conversation', conversationId: 'c1' }])
    expect(app.get().chat).toMatchObject({ conversationId: 'c1', loading: true })
    await vi.waitFor(() => expect(app.get().chat.loading).toBe(false))
    expect(app.get().chat.messages.map((m) => m.text)).toEqual(['hi', 'hello'])
  })

  it('does not send while the conversation loads, nor an empty message', () => {
    const { chat } = setup({ listMessages: () => new Promise(() => undefined) })
    chat.open('c1')
    expect(chat.send('hello')).toBe(false)
    chat.open(null)
    expect(chat.send('   ')).toBe(false)
  })

  it('shows why a message could not be sent before the server is known', async () => {
    const { app, chat } = setup(null)
    chat.open(null)
    expect(chat.send('hello')).toBe(true)
    await vi.waitFor(() => expect(app.get().chat.messages.at(-1)?.status).toBe('error'))
    expect(app.get().chat.messages.at(-1)?.error).toMatch(/not connected/)
  })
})
