// What a token re-renders, measured on the whole app (WispProvider + App)
// rendered by react-dom into a fake document: every component that reads
// the app's context, and the message bubbles, count their renders (see
// renderCount.test-util.ts). A token must re-render its bubble, once per
// animation frame however many tokens came, and nothing else.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ChatFrame } from '../api'
import { bubbles, mountApp, startApp, statusFrame, type MountedApp } from './appHarness.test-util'
import { FakeServer, SseFeed } from './fakeServer.test-util'
import { renderCounts, rendersOf, resetRenders } from './renderCount.test-util'
import { onBranch } from './messages.test-util'

// The components that must stay still while a reply streams, and the bubbles.
vi.mock('../components/Header', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'Header'))
vi.mock('../components/Sidebar', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'Sidebar'))
vi.mock('../components/ConversationItem', async (orig) =>
  (await import('./renderCount.test-util')).counting(await orig(), 'ConversationItem'),
)
vi.mock('../components/ChatPanel', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'ChatPanel'))
vi.mock('../components/ChatView', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'ChatView'))
vi.mock('../components/MessageList', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'MessageList'))
vi.mock('../components/MessageBubble', async (orig) =>
  (await import('./renderCount.test-util')).counting(await orig(), 'MessageBubble'),
)
vi.mock('../components/ThinkingBlock', async (orig) =>
  (await import('./renderCount.test-util')).counting(await orig(), 'ThinkingBlock'),
)
vi.mock('../components/ToolCard', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'ToolCard'))
vi.mock('../components/Composer', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'Composer'))
vi.mock('../components/Notices', async (orig) => (await import('./renderCount.test-util')).counting(await orig(), 'Notices'))
vi.mock('../components/RemindersPanel', async (orig) =>
  (await import('./renderCount.test-util')).counting(await orig(), 'RemindersPanel'),
)
vi.mock('../components/ActivityPanel', async (orig) =>
  (await import('./renderCount.test-util')).counting(await orig(), 'ActivityPanel'),
)
// The markdown renderer is someone else's and not under test: plain text, counted.
vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  const { counting } = await import('./renderCount.test-util')
  return counting({ Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }, 'Markdown')
})
// Panels that need WebGL or a terminal, closed or not under test here.
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))
vi.mock('../components/SettingsPanel', () => ({ SettingsPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))

const CONV = 'c1'
const history = onBranch([
  { id: 'u1', role: 'user', text: 'earlier question', timestamp: 1, source: 'chat' },
  { id: 'a1', role: 'assistant', text: 'earlier answer', timestamp: 2, runId: 'run-0', status: 'ended', source: 'chat' },
])

function serverWithHistory(): FakeServer {
  const server = new FakeServer()
  const at = '2025-11-21T09:00:00.000Z'
  server.conversations = [
    { id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
    { id: 'c2', title: 'Other chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
  ]
  server.messages.set(CONV, history)
  return server
}

const tok = (text: string, segment?: number): ChatFrame => (segment === undefined ? { type: 'token', text } : { type: 'token', text, segment })

const started = (server: FakeServer) => startApp(server, { id: CONV, bubbles: 2, rows: 2 })

describe('streaming a reply', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  it('re-renders only the streaming bubble, once per animation frame, for any number of tokens', async () => {
    const server = serverWithHistory()
    app = await started(server)
    const a = app

    await a.act(() => {
      expect(a.chat().send('hello')).toBe(true)
    })
    await a.until(() => server.sends.length === 1, 'the reply stream')
    expect(server.sends[0]!.path).toBe(`/api/conversations/${CONV}/messages/stream?dialect=delta`)
    const feed = server.sends[0]!
    await a.until(() => bubbles(a).at(-1)?.status === 'streaming', 'the streaming bubble')
    const replyKey = [...a.replies().get().keys()][0]!

    // It thinks, calls an action (which finishes) and starts its reply.
    await a.act(() => {
      feed.send(1, { type: 'thinking', text: 'The user says hello.' })
      feed.send(2, { type: 'tool_start', callId: 'k1', name: 'PLAY_EMOTE', arguments: { emoteId: 'wave' } })
      feed.send(3, { type: 'tool_end', callId: 'k1', name: 'PLAY_EMOTE', result: 'waving' })
      feed.send(4, tok('w0 '))
    })
    await a.until(() => a.replies().pending === 4, 'the first frames')
    await a.act(() => a.frames.run())
    expect(a.root.byTestId('tool-card')).toHaveLength(1)
    expect(a.root.byTestId('thinking')).toHaveLength(1)
    let storeUpdates = 0
    a.replies().subscribe(() => storeUpdates++)
    resetRenders()

    // 300 tokens between two frames: nothing renders until the frame.
    const words = Array.from({ length: 300 }, (_, i) => `w${i} `)
    await a.act(() => words.slice(1).forEach((w, i) => feed.send(i + 5, tok(w))))
    await a.until(() => a.replies().pending === 299, 'the tokens to reach the store')
    expect(renderCounts()).toEqual({})
    expect(a.frames.pending).toBe(1)

    // One frame: one store update, one render of the streaming bubble (its text), nothing else:
    // not even the thinking block or the tool card inside it.
    await a.act(() => a.frames.run())
    expect(storeUpdates).toBe(1)
    expect(renderCounts()).toEqual({ MessageBubble: 1, Markdown: 1 })
    expect(rendersOf('MessageBubble', replyKey)).toBe(1)
    expect(bubbles(a).at(-1)).toEqual({ role: 'assistant', status: 'streaming', text: words.join('') })

    // The next frame's tokens (an action's callback segment among them): again one render.
    resetRenders()
    await a.act(() => {
      feed.send(400, { type: 'token', text: 'Waving', segment: 1, callback: true })
      feed.send(401, tok('!'))
    })
    await a.until(() => a.replies().pending === 2, 'the next tokens')
    await a.act(() => a.frames.run())
    expect(storeUpdates).toBe(2)
    expect(renderCounts()).toEqual({ MessageBubble: 1, Markdown: 1 })
    expect(bubbles(a).at(-1)?.text).toBe(`${words.join('')}!\n\nWaving`)

    // The end of the reply changes the app state (the composer can send again): done's text wins.
    await a.act(() => {
      feed.send(402, {
        type: 'done',
        fullText: 'The final reply',
        agentName: 'Wisp',
        runId: server.runId,
        messageId: 'a2',
        actionCallbackHistory: ['Waving'],
      })
      feed.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the end of the reply')
    expect(bubbles(a)).toEqual([
      { role: 'user', status: 'done', text: 'earlier question' },
      { role: 'assistant', status: 'done', text: 'earlier answer' },
      { role: 'user', status: 'done', text: 'hello' },
      { role: 'assistant', status: 'done', text: 'The final reply' },
    ])
    expect(rendersOf('MessageBubble', 'a1')).toBe(0)
    expect(a.root.byTestId('send')).toHaveLength(1)
  })

  it('renders a status frame only where status is shown, not in the chat', async () => {
    const server = serverWithHistory()
    const a = (app = await started(server))
    resetRenders()

    // The agent's state and uptime change: the header's badge shows it; no other component selects them.
    await a.act(() => a.sockets[0]!.receive({ ...statusFrame(server), state: 'paused', uptime: 2 }))
    await a.until(() => a.root.byTestId('agent-state')[0]?.textContent === 'paused', 'the new state')
    expect(renderCounts()).toEqual({})

    // A frame that changes what the header shows re-renders the header, and still not the chat.
    resetRenders()
    await a.act(() => a.sockets[0]!.receive({ ...statusFrame(server), model: 'another' }))
    await a.until(() => rendersOf('Header') > 0, 'the header')
    expect(rendersOf('MessageList')).toBe(0)
    expect(rendersOf('MessageBubble')).toBe(0)
    expect(rendersOf('ChatView')).toBe(0)
    expect(rendersOf('Sidebar')).toBe(0)
  })

  it('shows the text so far of a reply it picks up after a reload, then its deltas', async () => {
    const server = serverWithHistory()
    server.messages.set(CONV, [
      ...history,
      { id: 'u2', role: 'user', text: 'go on', timestamp: 3 },
      { id: 'a2', role: 'assistant', text: 'Once upon', timestamp: 4, runId: 'run-2', status: 'active' },
    ])
    const feed = new SseFeed('/api/runs/run-2/stream')
    server.runAnswers.push({ kind: 'stream', feed })
    const a = (app = await mountApp(server, { hash: `#/c/${CONV}` }))
    await a.until(() => a.sockets.length === 1, 'the socket')
    await a.act(() => a.sockets[0]!.receive(statusFrame(server)))
    await a.until(() => server.count('GET', '/api/runs/run-2/stream') === 1, 'the resume')
    expect(server.requests.find((r) => r.path.startsWith('/api/runs/'))?.path).toBe('/api/runs/run-2/stream?dialect=delta&after=0')
    expect(bubbles(a).at(-1)).toEqual({ role: 'assistant', status: 'streaming', text: 'Once upon' })

    // From the start, in the delta dialect: the replay rebuilds the text.
    await a.act(() => {
      feed.send(1, tok('Once'))
      feed.send(2, tok(' upon a time'))
    })
    await a.until(() => a.replies().pending === 2, 'the replay')
    await a.act(() => a.frames.run())
    expect(bubbles(a).at(-1)?.text).toBe('Once upon a time')
  })
})
