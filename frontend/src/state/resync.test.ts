// The whole app against a fake server and socket: what it reloads when /ws
// says events were missed (replay-truncated) or dropped it for lagging
// (1013), and how a resume answered 204 ends a reply.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DisplayMessage } from '../api'
import { bubbles, startApp, statusFrame, type MountedApp } from './appHarness.test-util'
import { FakeServer } from './fakeServer.test-util'
import { lone, onBranch } from './messages.test-util'

vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))
vi.mock('../components/SettingsPanel', () => ({ SettingsPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const conversation = (id: string, title: string) => ({ id, title, roomId: '', createdAt: at, updatedAt: at, unread: false })
const history = onBranch([
  { id: 'u1', role: 'user', text: 'question', timestamp: 1 },
  { id: 'a1', role: 'assistant', text: 'answer', timestamp: 2, runId: 'run-0', status: 'ended' },
])

/** The REST reads that rebuild what the page got from /ws events. */
const RELOADS = [
  '/api/conversations',
  // (its page carries the display rows of its runs)
  `/api/conversations/${CONV}/messages`,
  '/api/reminders',
  '/api/status',
  '/api/config',
] as const

function counts(server: FakeServer): Record<string, number> {
  return Object.fromEntries(RELOADS.map((path) => [path, server.count('GET', path)]))
}

function plus(before: Record<string, number>, n: number): Record<string, number> {
  return Object.fromEntries(Object.entries(before).map(([path, c]) => [path, c + n]))
}

describe('missed /ws events', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  function server(): FakeServer {
    const s = new FakeServer()
    s.conversations = [conversation(CONV, 'Open chat')]
    s.messages.set(CONV, history)
    return s
  }

  it('reloads, once, what the page built from /ws when the replay was cut short', async () => {
    const s = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: 2, rows: 1 }))
    const before = counts(s)

    // Meanwhile (unseen): a new conversation, a message Wisp sent on its own, a tool call's display message.
    s.conversations = [conversation('c9', 'Made while away'), ...s.conversations]
    s.messages.set(CONV, [...history, { id: 'p1', role: 'assistant', text: 'Your reminder', timestamp: 3, source: 'reminder' }])
    const tool: DisplayMessage = {
      id: 'd1',
      conversationId: CONV,
      runId: 'run-0',
      messageType: 'tool',
      contentType: 'tool_call',
      content: { callId: 'k', name: 'PLAY_EMOTE', arguments: {} },
      status: 'completed',
      createdAt: 2,
      updatedAt: 2,
    }
    s.display.set(CONV, [tool])

    await a.act(() => a.sockets[0]!.receive({ type: 'replay-truncated', lastEventId: 'evt-12', oldestEventId: 'evt-2183' }))
    await a.until(() => a.root.byTestId('conversation-item').length === 2 && bubbles(a).length === 3, 'the reload')
    await a.until(() => a.root.byTestId('tool-card').length === 1, 'the display messages')
    await a.act()
    expect(counts(s)).toEqual(plus(before, 1))
    expect(bubbles(a).at(-1)).toEqual({ role: 'assistant', status: 'done', text: 'Your reminder' })
    expect(a.root.byTestId('conversation-title').map((t) => t.textContent)).toEqual(['Made while away', 'Open chat'])
  })

  it('reloads after reconnecting from a close for lagging, and not again for a replay-truncated on that connection', async () => {
    const s = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: 2, rows: 1 }))
    // (the reload asks for the newest page; the catch-up after a reconnect, for the messages alone)
    const display = () => s.count('GET', `/api/conversations/${CONV}/messages?limit=100`)
    const status = () => s.count('GET', '/api/status')
    const [displayBefore, statusBefore] = [display(), status()]

    await a.act(() => a.sockets[0]!.drop(1013, 'client too slow'))
    await a.act(() => a.socketClock.fire())
    await a.until(() => a.sockets.length === 2, 'the reconnect')
    expect(new URL(a.sockets[1]!.url).searchParams.get('clientId')).not.toBeNull()
    await a.act(() => a.sockets[1]!.receive(statusFrame(s)))
    await a.until(() => display() === displayBefore + 1 && status() === statusBefore + 1, 'the reload')

    await a.act(() => a.sockets[1]!.receive({ type: 'replay-truncated', lastEventId: 'evt-1', oldestEventId: 'evt-9' }))
    await a.act()
    expect(display()).toBe(displayBefore + 1)
    expect(status()).toBe(statusBefore + 1)
  })

  it('keeps a reply it is streaming going, and catches up the rest of the conversation', async () => {
    const s = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: 2, rows: 1 }))
    await a.act(() => {
      a.chat().send('hello')
    })
    await a.until(() => s.sends.length === 1, 'the reply stream')
    const feed = s.sends[0]!
    await a.act(() => feed.send(1, { type: 'token', text: 'Hi' }))
    await a.until(() => a.replies().pending === 1, 'the token')
    await a.act(() => a.frames.run())
    const messagesBefore = s.count('GET', `/api/conversations/${CONV}/messages`)

    await a.act(() => a.sockets[0]!.receive({ type: 'replay-truncated', lastEventId: 'evt-12', oldestEventId: 'evt-2183' }))
    await a.until(() => s.count('GET', `/api/conversations/${CONV}/messages`) === messagesBefore + 1, 'the catch-up')
    await a.act()
    expect(bubbles(a)).toEqual([
      { role: 'user', status: 'done', text: 'question' },
      { role: 'assistant', status: 'done', text: 'answer' },
      { role: 'user', status: 'done', text: 'hello' },
      { role: 'assistant', status: 'streaming', text: 'Hi' },
    ])
    await a.act(() => feed.send(2, { type: 'token', text: ' there' }))
    await a.until(() => a.replies().pending === 1, 'the next token')
    await a.act(() => a.frames.run())
    expect(bubbles(a).at(-1)).toEqual({ role: 'assistant', status: 'streaming', text: 'Hi there' })
  })
})

describe('a resume answered 204', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  it('loads the saved reply instead of streaming, with no error and no retry', async () => {
    const s = new FakeServer()
    s.conversations = [conversation(CONV, 'Open chat')]
    const active = lone({ id: 'a2', role: 'assistant', text: 'Once upon', timestamp: 4, runId: 'run-2', status: 'active' })
    s.messages.set(CONV, [...history, { id: 'u2', role: 'user', text: 'a story', timestamp: 3 }, active])
    // The run ends between the page's load and its resume.
    s.runAnswers.push({ kind: 'ended' })
    const resumed = () => s.count('GET', '/api/runs/run-2/stream')
    s.onRequest = (req) => {
      if (!req.path.startsWith('/api/runs/run-2/stream')) return
      const ended = lone({ ...active, text: 'Once upon a time.', status: 'ended' })
      s.messages.set(CONV, [...history, { id: 'u2', role: 'user', text: 'a story', timestamp: 3 }, ended])
    }

    const a = (app = await startApp(s, { id: CONV, bubbles: 4, rows: 1 }))
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the saved reply')
    await a.act()
    expect(resumed()).toBe(1)
    expect(bubbles(a).at(-1)).toEqual({ role: 'assistant', status: 'done', text: 'Once upon a time.' })
    expect(s.count('GET', `/api/conversations/${CONV}/messages`)).toBe(2)
    expect(a.root.byTestId('message-error')).toHaveLength(0)
    expect(a.root.findAll((el) => el.getAttribute('role') === 'alert')).toHaveLength(0)
  })
})
