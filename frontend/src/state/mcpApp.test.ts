// MCP servers on the whole app (WispProvider + App) against the fake server:
// Settings › Tools loaded on open and kept live by the /ws mcp-servers frames
// (and reloaded after a reconnect), a tool call's approval card in the chat,
// and tool grants in Settings.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Approval } from '../api'
import { mcpApprovalExample, mcpGrantExample, grantExample } from '../api/approvals.test-util'
import { httpServerExample, mcpServerExample } from '../api/mcp.test-util'
import { mountApp, startApp, statusFrame, type MountedApp } from './appHarness.test-util'
import type { FakeElement } from './fakeDom.test-util'
import { click } from './fakeEvents.test-util'
import { FakeServer, json } from './fakeServer.test-util'
import { onBranch } from './messages.test-util'

// The markdown renderer, the avatar and the terminal are not under test.
vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const history = onBranch([
  { id: 'u1', role: 'user', text: 'file a bug', timestamp: 1, source: 'chat', runId: 'run-0' },
  { id: 'a1', role: 'assistant', text: 'Filing it.', timestamp: 2, runId: 'run-0', status: 'ended', source: 'chat' },
])

function makeServer(): FakeServer {
  const server = new FakeServer()
  server.conversations = [{ id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false }]
  server.messages.set(CONV, history)
  server.mcpServers = [mcpServerExample, httpServerExample]
  return server
}

const one = (root: FakeElement, testId: string): FakeElement => {
  const found = root.byTestId(testId)
  if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
  return found[0]!
}
const serverNames = (a: MountedApp) => a.root.byTestId('mcp-server').map((s) => `${s.getAttribute('data-name')}:${s.getAttribute('data-status')}`)

describe('MCP servers in the app', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  async function openSettings(server: FakeServer): Promise<MountedApp> {
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    await a.act(() => click(a.root, one(a.root, 'settings-toggle')))
    await a.until(() => a.root.byTestId('mcp-server').length === 2, 'the MCP servers')
    return a
  }

  it('loads the servers when Settings opens, and keeps them live from /ws', async () => {
    const server = makeServer()
    const a = await openSettings(server)
    expect(server.count('GET', '/api/mcp/servers')).toBe(1)
    expect(serverNames(a)).toEqual(['github:running', 'search:failed'])
    expect(a.root.byTestId('mcp-tool').map((t) => t.getAttribute('data-action'))).toEqual(['github__create_issue', 'github__list_issues'])

    const recovered = { ...httpServerExample, status: 'running', lastError: '', retryAt: null }
    await a.act(() => a.sockets[0]!.receive({ type: 'mcp-servers', servers: [mcpServerExample, recovered] }))
    expect(serverNames(a)).toEqual(['github:running', 'search:running'])
    // A malformed frame changes nothing.
    await a.act(() => a.sockets[0]!.receive({ type: 'mcp-servers', servers: [{ name: 'x' }] }))
    expect(serverNames(a)).toEqual(['github:running', 'search:running'])
    expect(server.count('GET', '/api/mcp/servers')).toBe(1)
  })

  it('reloads the servers after /ws reconnects (frames sent meanwhile are lost)', async () => {
    const server = makeServer()
    const a = await openSettings(server)
    server.mcpServers = [mcpServerExample]
    await a.act(() => a.sockets[0]!.drop(1006))
    await a.act(() => a.socketClock.fire())
    await a.until(() => a.sockets.length === 2, 'the new socket')
    await a.act(() => {
      a.sockets[1]!.open()
      a.sockets[1]!.receive(statusFrame(server))
    })
    await a.until(() => server.count('GET', '/api/mcp/servers') === 2, 'the reload')
    await a.until(() => serverNames(a).length === 1, 'the new list')
    expect(serverNames(a)).toEqual(['github:running'])
  })

  it('restarts a server through the API', async () => {
    const server = makeServer()
    server.mcp = (method, name, action) =>
      method === 'POST' && action === 'restart' ? json(202, { server: { ...httpServerExample, name, status: 'starting' } }) : json(404, { error: 'no' })
    const a = await openSettings(server)
    const search = a.root.byTestId('mcp-server').find((s) => s.getAttribute('data-name') === 'search')!
    await a.act(() => click(a.root, one(search, 'mcp-restart')))
    await a.until(() => serverNames(a).includes('search:starting'), 'the restart')
    expect(server.count('POST', '/api/mcp/servers/search/restart')).toBe(1)
  })

  it('labels tool grants as tools, beside shell commands', async () => {
    const server = makeServer()
    server.grants = [grantExample, mcpGrantExample]
    const a = await openSettings(server)
    await a.until(() => a.root.byTestId('grant').length === 2, 'the grants')
    const grants = a.root.byTestId('grant')
    expect(grants.map((g) => [g.getAttribute('data-kind'), g.getAttribute('data-base'), one(g, 'grant-kind').textContent])).toEqual([
      ['shell', 'git', 'Command'],
      ['mcp', 'github.create_issue', 'Tool'],
    ])
    expect(grants[1]?.textContent).toContain('Toolgithub.create_issue')
  })

  it("shows a tool call's card in its conversation and sends the answer", async () => {
    const server = makeServer()
    const pending: Approval = { ...mcpApprovalExample, conversationId: CONV, runId: 'run-0' }
    server.approvals = [pending]
    server.decide = () =>
      json(200, { approval: { ...pending, status: 'approved', decision: 'approve_always', decidedAt: '2026-11-25T01:01:00Z' } })
    const a = (app = await mountApp(server, { hash: `#/c/${CONV}` }))
    await a.until(() => a.sockets.length === 1, 'the socket')
    await a.act(() => a.sockets[0]!.receive(statusFrame(server)))
    await a.until(() => a.root.byTestId('approval-card').length === 1, 'the card')
    const card = one(a.root, 'approval-card')
    expect(card.getAttribute('data-kind')).toBe('mcp')
    expect(a.root.byTestId('message')[1]?.nextSibling).toBe(card)
    expect(one(card, 'approval-mcp-server').textContent).toBe('github')
    expect(one(card, 'approval-mcp-arguments').textContent).toContain('"repo": "me/wisp"')

    await a.act(() => click(a.root, one(card, 'approve-always')))
    await a.until(() => one(a.root, 'approval-card').getAttribute('data-status') === 'approved', 'the decision')
    // The base: the one tool the approval names.
    expect(server.requests.filter((r) => r.method === 'POST' && r.path.startsWith('/api/approvals/'))).toEqual([
      { method: 'POST', path: '/api/approvals/ap_2', body: { decision: 'approve_always', bases: ['github.create_issue'] } },
    ])
    expect(one(a.root, 'approval-outcome').textContent).toBe('Allowed; always allowing github.create_issue from now on.')
  })
})
