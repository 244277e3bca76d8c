// GET …/messages pages and PUT …/branch: the query a page is asked with, the
// page decoded, and the display rows asked for apart from a server that sends
// none with its page.

import { describe, expect, it } from 'vitest'
import { ApiClient } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'

const message = (id: string, runId?: string) => ({
  id,
  role: 'assistant',
  text: id,
  timestamp: 1,
  parentId: null,
  siblingIds: [id],
  siblingIndex: 0,
  depth: 0,
  ...(runId === undefined ? {} : { runId, status: 'ended' }),
})
const row = (id: string, runId: string) => ({
  id,
  conversationId: 'c1',
  runId,
  messageType: 'tool',
  contentType: 'tool_call',
  content: { callId: id, name: 'PLAY_EMOTE', arguments: {} },
  createdAt: 1,
  updatedAt: 1,
})

describe('ApiClient pages', () => {
  it('asks for the page before, after or around a message, with a limit', async () => {
    const page = { messages: [message('m2', 'r2')], hasOlder: true, hasNewer: true, branchLength: 9, displayMessages: [row('d2', 'r2')], summaries: [] }
    const { fetch, calls } = fakeFetch(() => json(200, page))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.listMessages('c/1', { before: 'm 3', limit: 50 })).resolves.toMatchObject({
      hasOlder: true,
      hasNewer: true,
      branchLength: 9,
      messages: [{ id: 'm2' }],
      displayMessages: [{ id: 'd2' }],
    })
    await api.listMessages('c/1', { after: 'm1' })
    await api.listMessages('c/1', { around: 'm5', limit: 100.7 })
    await api.setBranch('c/1', 'm5')
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', 'http://h/api/conversations/c%2F1/messages?before=m+3&limit=50', undefined],
      ['GET', 'http://h/api/conversations/c%2F1/messages?after=m1', undefined],
      ['GET', 'http://h/api/conversations/c%2F1/messages?around=m5&limit=100', undefined],
      ['PUT', 'http://h/api/conversations/c%2F1/branch', { messageId: 'm5' }],
    ])
  })

  it('asks a server that sends no display rows with its page for them apart, the page\'s runs only', async () => {
    const { fetch, calls } = fakeFetch((c) =>
      c.url.endsWith('/display-messages')
        ? json(200, { displayMessages: [row('d1', 'r1'), row('d9', 'r9')] })
        : json(200, { messages: [message('m1', 'r1'), message('m2')] }),
    )
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    const page = await api.listMessages('c1')
    expect(page).toMatchObject({ hasOlder: false, hasNewer: false, branchLength: 2 })
    expect(page.displayMessages.map((d) => d.id)).toEqual(['d1'])
    expect(calls.map((c) => c.url)).toEqual(['http://h/api/conversations/c1/messages', 'http://h/api/conversations/c1/display-messages'])
  })

  it('rejects a page whose messages are not messages', async () => {
    const { fetch } = fakeFetch(() => json(200, { messages: [{ id: 'm1' }], displayMessages: [] }))
    const api = new ApiClient({ baseURL: 'http://h', fetch })
    await expect(api.listMessages('c1')).rejects.toThrow('malformed messages response')
  })
})
