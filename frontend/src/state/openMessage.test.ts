// WispPage.openMessage, the action a citation in a reply (and a search
// result) takes: the conversation opens at that message on its branch (PUT
// …/branch, then the page ?around= it) and the message list is asked to bring
// it into view; a conversation the page does not know is not opened.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiClient, type Conversation } from '../api'
import { installFakeBrowser, type FakeBrowser } from './fakeDom.test-util'
import { BASE_URL, FakeServer } from './fakeServer.test-util'
import { WispPage } from './wispPage'

const conversation = (id: string, title: string): Conversation => ({
  id,
  title,
  roomId: '',
  createdAt: '2026-11-27T10:00:00Z',
  updatedAt: '2026-11-27T10:00:00Z',
  unread: false,
})

describe('WispPage.openMessage', () => {
  let browser: FakeBrowser
  let server: FakeServer
  let page: WispPage

  beforeEach(() => {
    browser = installFakeBrowser()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    server = new FakeServer()
    server.conversations = [conversation('cA', 'Trip'), conversation('cB', 'Now')]
    server.messages.set('cA', [
      { id: 'a1', role: 'user', text: 'book the ferry', timestamp: 1 },
      { id: 'a2', role: 'assistant', text: 'booked', timestamp: 2, runId: 'r1', status: 'ended' },
    ])
    page = new WispPage(() => () => undefined)
    page.setApi(new ApiClient({ baseURL: BASE_URL, fetch: server.fetch }))
    page.app.dispatch({ type: 'conversations-loaded', conversations: server.conversations })
  })
  afterEach(() => {
    browser.uninstall()
    vi.restoreAllMocks()
  })

  it('opens the conversation at the message, on its branch, and asks for it to be shown', async () => {
    page.chat.open('cB')
    expect(page.openMessage('cA', 'a1')).toBe(true)
    expect(page.messageFocus.get()).toMatchObject({ conversationId: 'cA', messageId: 'a1' })
    expect(browser.location.hash).toBe('#/c/cA')
    await vi.waitFor(() => expect(page.app.get().chat.loading).toBe(false))
    expect(page.app.get().chat).toMatchObject({ conversationId: 'cA' })
    expect(page.app.get().chat.messages.map((m) => m.id)).toEqual(['a1', 'a2'])
    // The meter and the cost of the conversation opened are read too (contextMeter.ts).
    const asked = server.requests.filter((r) => r.path.startsWith('/api/conversations/cA/branch') || r.path.startsWith('/api/conversations/cA/messages'))
    expect(asked.map((r) => [r.method, r.path.replace(/&limit=\d+/, ''), r.body])).toEqual([
      ['PUT', '/api/conversations/cA/branch', { messageId: 'a1' }],
      ['GET', '/api/conversations/cA/messages?around=a1', undefined],
    ])
  })

  it('does not open a conversation the page does not know, and says so', () => {
    page.chat.open('cB')
    const before = server.requests.length
    expect(page.openMessage('gone', 'a1')).toBe(false)
    expect(page.app.get().chat.conversationId).toBe('cB')
    expect(page.messageFocus.get()).toBeNull()
    expect(page.app.get().error).toContain('not in any conversation')
    expect(server.requests.length).toBe(before)
  })
})
