// Shell-command approvals on the whole app (WispProvider + App) against the
// fake server: the card a paused run shows, deciding on it (and losing to
// another decision), frames from other clients, the sidebar mark, "Show in
// Terminal" and the grants in Settings.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Approval, ChatFrame } from '../api'
import { approvalExample } from '../api/approvals.test-util'
import { bubbles, mountApp, startApp, statusFrame, type MountedApp } from './appHarness.test-util'
import type { FakeElement } from './fakeDom.test-util'
import { click, keyDown, typeInto } from './fakeEvents.test-util'
import { FakeServer, json, type SseFeed } from './fakeServer.test-util'
import { onBranch } from './messages.test-util'

// The markdown renderer is someone else's and not under test: plain text.
vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))
// The terminal (xterm.js) is not under test: a stand-in that shows which run it was asked to focus.
vi.mock('../components/TerminalDock', async () => {
  const { createElement } = await import('react')
  return {
    TerminalDock: ({ focusRun }: { focusRun?: { runId: string } | null }) =>
      createElement('section', { 'data-testid': 'terminal-dock', 'data-focus-run': focusRun?.runId ?? '' }),
  }
})

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const history = onBranch([
  // Saved user messages carry their run's id too (the card goes after the reply only).
  { id: 'u1', role: 'user', text: 'earlier question', timestamp: 1, source: 'chat', runId: 'run-0' },
  { id: 'a1', role: 'assistant', text: 'earlier answer', timestamp: 2, runId: 'run-0', status: 'ended', source: 'chat' },
])

function makeServer(): FakeServer {
  const server = new FakeServer()
  server.conversations = [
    { id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
    { id: 'c2', title: 'Other chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
  ]
  server.messages.set(CONV, history)
  return server
}

const pending = (over: Partial<Approval> = {}): Approval => ({ ...approvalExample, runId: 'run-1', conversationId: CONV, ...over })
const decided = (over: Partial<Approval>): Approval => pending({ decidedAt: '2026-11-25T01:01:00Z', ...over })

const paused = (approval: Approval): ChatFrame => ({
  type: 'run_paused',
  reason: 'waiting for approval',
  pendingToolName: 'RUN_SHELL',
  pendingToolCallId: approval.callId,
  approvalId: approval.id,
  approval,
})

const one = (root: FakeElement, testId: string): FakeElement => {
  const found = root.byTestId(testId)
  if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
  return found[0]!
}

const cards = (a: MountedApp) => a.root.byTestId('approval-card')
const cardStatus = (a: MountedApp) => cards(a).map((c) => c.getAttribute('data-status'))
const approvalPosts = (server: FakeServer) => server.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/approvals/'))

describe('approvals in the app', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  /** Sends a message and feeds its reply up to the pause on RUN_SHELL. */
  async function pausedReply(server: FakeServer, approval = pending()): Promise<{ a: MountedApp; feed: SseFeed }> {
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 2 }))
    await a.act(() => {
      expect(a.chat().send('clean the build')).toBe(true)
    })
    await a.until(() => server.sends.length === 1, 'the reply stream')
    const feed = server.sends[0]!
    await a.act(() => {
      feed.send(1, { type: 'tool_start', callId: 'call_1', name: 'RUN_SHELL', arguments: { command: approval.command } })
      feed.send(2, { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status: 'waiting' })
      feed.send(3, paused(approval))
    })
    await a.until(() => cards(a).length === 1, 'the approval card')
    await a.act(() => a.frames.run())
    return { a, feed }
  }

  it('shows the card of a paused run right after its reply, with the command and what it runs', async () => {
    const server = makeServer()
    const { a } = await pausedReply(server)
    const card = one(a.root, 'approval-card')
    expect(card.getAttribute('data-approval-id')).toBe('ap_1')
    expect(card.getAttribute('data-status')).toBe('pending')
    // Right after the streaming reply in the message list.
    const reply = a.root.byTestId('message').at(-1)!
    expect(reply.getAttribute('data-status')).toBe('streaming')
    expect(reply.nextSibling).toBe(card)
    expect(one(card, 'approval-command').textContent).toBe('git status && rm -rf build')
    expect(one(card, 'approval-cwd').textContent).toBe('/home/me/src/wisp')
    expect(one(card, 'approval-reason').textContent).toBe('See what changed before cleaning')
    expect(one(card, 'approval-bases').textContent).toBe('gitrm')
    expect(card.byTestId('approval-always-ask')).toHaveLength(0)
    expect(card.byTestId('approve-always').map((b) => b.getAttribute('data-base'))).toEqual(['rm'])
    expect(a.root.byTestId('tool-card')[0]?.getAttribute('data-status')).toBe('waiting')
    // The open conversation gets no mark in the sidebar: its card is on screen.
    expect(a.root.byTestId('approval-pending-mark')).toHaveLength(0)
  })

  it('lists why a command always asks, and offers no grant for it', async () => {
    const server = makeServer()
    const { a } = await pausedReply(server, pending({ command: 'sudo ls', bases: ['sudo'], grantable: [], alwaysAsk: ['sudo runs commands as another user'] }))
    expect(one(a.root, 'approval-always-ask').textContent).toContain('sudo runs commands as another user')
    expect(a.root.byTestId('approve-always')).toHaveLength(0)
  })

  it('never approves on an Enter typed in the composer; Run once posts approve and disables the buttons meanwhile', async () => {
    const server = makeServer()
    let answer: (r: Response) => void = () => undefined
    server.decide = () => new Promise((resolve) => (answer = resolve))
    const { a, feed } = await pausedReply(server)

    const composer = one(a.root, 'composer')
    await a.act(() => {
      typeInto(a.root, composer, 'yes')
      keyDown(a.root, composer, 'Enter')
    })
    expect(approvalPosts(server)).toHaveLength(0)
    expect(cardStatus(a)).toEqual(['pending'])

    await a.act(() => click(a.root, one(a.root, 'approve-once')))
    await a.until(() => approvalPosts(server).length === 1, 'the decision')
    expect(approvalPosts(server)[0]).toMatchObject({ path: '/api/approvals/ap_1', body: { decision: 'approve' } })
    const card = one(a.root, 'approval-card')
    for (const id of ['approve-once', 'approve-always', 'deny', 'deny-note']) {
      expect(one(card, id).hasAttribute('disabled'), id).toBe(true)
    }
    // A second click while it is in flight sends nothing.
    await a.act(() => click(a.root, one(a.root, 'approve-always')))
    expect(approvalPosts(server)).toHaveLength(1)

    await a.act(() => answer(json(200, { approval: decided({ status: 'approved', decision: 'approve' }) })))
    await a.until(() => cardStatus(a)[0] === 'approved', 'the decided card')
    expect(one(a.root, 'approval-outcome').textContent).toBe('Allowed once.')
    expect(a.root.byTestId('approve-once')).toHaveLength(0)

    // The run goes on: its command runs in the terminal, and the tool card links to it.
    await a.act(() => {
      feed.send(4, { type: 'run_resumed', approvalId: 'ap_1', decision: 'approve' })
      feed.send(5, { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status: 'executing', terminalRunId: 'run-42-abc' })
    })
    await a.until(() => a.replies().pending === 2, 'the frames')
    await a.act(() => a.frames.run())
    const tool = one(a.root, 'tool-card')
    expect(tool.getAttribute('data-status')).toBe('executing')
    expect(a.root.byTestId('terminal-dock')).toHaveLength(0)
    await a.act(() => click(a.root, one(tool, 'open-terminal-run')))
    expect(one(a.root, 'terminal-dock').getAttribute('data-focus-run')).toBe('run-42-abc')

    // Once the reply is done, the same Enter sends (so above it was refused, not lost).
    await a.act(() => {
      feed.send(6, { type: 'done', fullText: 'Cleaned.', agentName: 'Wisp', runId: 'run-1', messageId: 'a2', actionCallbackHistory: [] })
      feed.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the end of the reply')
    await a.act(() => {
      typeInto(a.root, composer, 'thanks')
      keyDown(a.root, composer, 'Enter')
    })
    await a.until(() => server.sends.length === 2, 'the next message')
    expect(approvalPosts(server)).toHaveLength(1)
  })

  it('denies with the note typed for Wisp', async () => {
    const server = makeServer()
    server.decide = () => json(200, { approval: decided({ status: 'denied', decision: 'deny', note: 'not on main' }) })
    const { a } = await pausedReply(server)
    await a.act(() => typeInto(a.root, one(a.root, 'deny-note'), 'not on main'))
    await a.act(() => click(a.root, one(a.root, 'deny')))
    await a.until(() => cardStatus(a)[0] === 'denied', 'the denied card')
    expect(approvalPosts(server)[0]?.body).toEqual({ decision: 'deny', note: 'not on main' })
    expect(one(a.root, 'approval-outcome').textContent).toBe('Denied: “not on main”')
  })

  it('shows which decision won when another client decided first (409)', async () => {
    const server = makeServer()
    server.decide = () => json(409, { error: 'approval already decided', decision: 'deny' })
    const { a } = await pausedReply(server)
    await a.act(() => click(a.root, one(a.root, 'approve-always')))
    await a.until(() => cardStatus(a)[0] === 'denied', 'the lost decision')
    expect(approvalPosts(server)[0]?.body).toEqual({ decision: 'approve_always', bases: ['rm'] })
    const conflict = one(a.root, 'approval-conflict')
    expect(conflict.getAttribute('data-decision')).toBe('deny')
    expect(conflict.textContent).toContain('denied')
  })

  it('updates the card when another client decides (approval-decided)', async () => {
    const server = makeServer()
    const { a } = await pausedReply(server)
    await a.act(() =>
      a.sockets[0]!.receive({ type: 'approval-decided', approval: decided({ status: 'approved', decision: 'approve_always' }) }),
    )
    expect(cardStatus(a)).toEqual(['approved'])
    expect(one(a.root, 'approval-outcome').textContent).toBe('Allowed; always allowing rm from now on.')
    expect(approvalPosts(server)).toHaveLength(0)
  })

  it('marks a conversation that is not open while a command in it waits, from start-up and from frames', async () => {
    const server = makeServer()
    server.approvals = [pending({ id: 'ap_9', conversationId: 'c2', runId: 'run-9' })]
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 2 }))
    const row = (id: string) => a.root.byTestId('conversation-item').find((el) => el.getAttribute('data-id') === id)!
    await a.until(() => row('c2').byTestId('approval-pending-mark').length === 1, 'the mark')
    expect(row(CONV).byTestId('approval-pending-mark')).toHaveLength(0)
    expect(cards(a)).toHaveLength(0) // the open conversation shows only its own cards

    await a.act(() => a.sockets[0]!.receive({ type: 'approval-decided', approval: decided({ id: 'ap_9', conversationId: 'c2', status: 'cancelled' }) }))
    expect(a.root.byTestId('approval-pending-mark')).toHaveLength(0)

    await a.act(() => a.sockets[0]!.receive({ type: 'approval-requested', approval: pending({ id: 'ap_10', conversationId: 'c2' }) }))
    expect(row('c2').byTestId('approval-pending-mark')).toHaveLength(1)
    // Opening it shows the card instead of the mark.
    await a.act(() => a.chat().open('c2'))
    await a.until(() => cards(a).length === 2, 'the cards of c2')
    expect(cardStatus(a)).toEqual(['cancelled', 'pending'])
    expect(a.root.byTestId('approval-pending-mark')).toHaveLength(0)
  })

  it('reloads the pending approvals when /ws reconnects, dropping those decided meanwhile', async () => {
    const server = makeServer()
    server.approvals = [pending({ id: 'ap_9', conversationId: 'c2' })]
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 2 }))
    await a.until(() => a.root.byTestId('approval-pending-mark').length === 1, 'the mark')
    expect(server.count('GET', '/api/approvals')).toBe(1)
    server.approvals = []
    await a.act(() => a.sockets[0]!.drop(1006))
    await a.act(() => a.socketClock.fire())
    await a.until(() => a.sockets.length === 2, 'the new socket')
    await a.act(() => {
      a.sockets[1]!.open()
      a.sockets[1]!.receive(statusFrame(server))
    })
    await a.until(() => server.count('GET', '/api/approvals') === 2, 'the reload')
    await a.until(() => a.root.byTestId('approval-pending-mark').length === 0, 'the mark to go')
  })

  it('shows a paused run\'s card when the page loads, from GET /api/approvals', async () => {
    const server = makeServer()
    server.approvals = [pending({ runId: 'run-0' })]
    const a = (app = await mountApp(server, { hash: `#/c/${CONV}` }))
    await a.until(() => a.sockets.length === 1, 'the socket')
    await a.act(() => a.sockets[0]!.receive(statusFrame(server)))
    await a.until(() => cards(a).length === 1, 'the card')
    expect(bubbles(a)).toHaveLength(2)
    // After the reply of its run.
    expect(a.root.byTestId('message')[1]?.nextSibling).toBe(cards(a)[0])
  })

  describe('grants in Settings', () => {
    const grants = [
      { id: 'g1', base: 'git', createdAt: at },
      { id: 'g2', base: 'ls', createdAt: at },
    ]

    async function openSettings(server: FakeServer): Promise<MountedApp> {
      const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 2 }))
      await a.act(() => click(a.root, one(a.root, 'settings-toggle')))
      await a.until(() => a.root.byTestId('settings-section-grants').length === 1, 'the grants section')
      return a
    }

    it('lists the grants and revokes one, down to the empty state', async () => {
      const server = makeServer()
      server.grants = grants
      const a = await openSettings(server)
      await a.until(() => a.root.byTestId('grant').length === 2, 'the grants')
      expect(a.root.byTestId('grant').map((g) => g.getAttribute('data-base'))).toEqual(['git', 'ls'])
      await a.act(() => click(a.root, one(a.root.byTestId('grant')[0]!, 'revoke-grant')))
      await a.until(() => a.root.byTestId('grant').length === 1, 'the revoke')
      expect(server.count('DELETE', '/api/grants/g1')).toBe(1)
      await a.act(() => click(a.root, one(a.root, 'revoke-grant')))
      await a.until(() => a.root.byTestId('grants-empty').length === 1, 'the empty state')
      expect(a.root.byTestId('grants-list')).toHaveLength(0)
      expect(one(a.root, 'grants-empty').textContent).toContain('No grants')
    })

    it('reloads the list after an "Always allow" decision', async () => {
      const server = makeServer()
      server.decide = () => {
        server.grants = [...grants, { id: 'g3', base: 'rm', createdAt: at }]
        return json(200, { approval: decided({ status: 'approved', decision: 'approve_always' }) })
      }
      const { a } = await pausedReply(server)
      await a.act(() => click(a.root, one(a.root, 'settings-toggle')))
      await a.until(() => a.root.byTestId('grants-empty').length === 1, 'the empty list')
      // The card is under the settings view; the store behind both is the same.
      await a.act(() => click(a.root, one(a.root, 'approve-always')))
      await a.until(() => a.root.byTestId('grant').length === 3, 'the new grants')
      expect(a.root.byTestId('grant').map((g) => g.getAttribute('data-base'))).toEqual(['git', 'ls', 'rm'])
    })
  })
})
