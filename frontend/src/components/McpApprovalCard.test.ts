// The approval card of an MCP tool call in a (fake) document: what it shows
// (server, tool, hints, the arguments in a bounded block), its three answers,
// and that a shell command's card is still drawn by the shell card.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Approval } from '../api'
import { approvalExample, mcpApprovalExample } from '../api/approvals.test-util'
import type { ApprovalCard as Card } from '../state/approvals'
import type { FakeBrowser, FakeElement } from '../state/fakeDom.test-util'
import { click, typeInto } from '../state/fakeEvents.test-util'
import { mountCards, type CardHarness } from './approvalCard.test-util'

const card = (approval: Approval, over: Partial<Card> = {}): Card => ({ approval, sending: null, conflict: null, error: null, ...over })

describe('McpApprovalCard', () => {
  let h: CardHarness
  let browser: FakeBrowser
  let React: CardHarness['React']
  let onDecide: CardHarness['onDecide']

  beforeEach(async () => {
    h = await mountCards()
    ;({ browser, React, onDecide } = h)
  })
  afterEach(() => h.close())

  const show = (c: Card) => h.show(c)
  const one = (testId: string, within?: FakeElement): FakeElement => h.one(testId, within)

  it('asks about the tool of its server, and shows the call', async () => {
    await show(card(mcpApprovalExample))
    const el = one('approval-card')
    expect(el.getAttribute('data-kind')).toBe('mcp')
    expect(el.getAttribute('data-approval-id')).toBe('ap_2')
    expect(el.getAttribute('data-status')).toBe('pending')
    expect(el.findAll((e) => e.tagName === 'STRONG')[0]?.textContent).toBe('Allow Create an issue from github?')
    expect(one('approval-mcp-server').textContent).toBe('github')
    const tool = one('approval-mcp-tool')
    expect(tool.getAttribute('data-tool')).toBe('create_issue')
    expect(tool.textContent).toContain('create_issue')
    expect(one('approval-mcp-description').textContent).toBe('Opens a new issue in a repository.')
    expect(one('approval-mcp-arguments').textContent).toBe(JSON.stringify(mcpApprovalExample.arguments, null, 2))
    expect(el.byTestId('approval-mcp-arguments-cut')).toHaveLength(0)
    // Only the hints set to true, as badges.
    expect(el.byTestId('mcp-annotation').map((b) => [b.getAttribute('data-hint'), b.textContent])).toEqual([['openWorld', 'open world']])
    // Nothing of a shell command.
    for (const id of ['approval-command', 'approval-cwd', 'approval-reason', 'approval-bases']) {
      expect(el.byTestId(id), id).toHaveLength(0)
    }
  })

  it('titles the call by the tool’s name when it has no title, and shows every hint given', async () => {
    const annotations = { readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    await show(card({ ...mcpApprovalExample, toolTitle: '', toolDescription: '', annotations }))
    expect(one('approval-card').findAll((e) => e.tagName === 'STRONG')[0]?.textContent).toBe('Allow create_issue from github?')
    expect(browser.container.byTestId('approval-mcp-description')).toHaveLength(0)
    expect(browser.container.byTestId('mcp-annotation').map((b) => b.textContent)).toEqual(['read-only', 'destructive', 'idempotent'])
  })

  it('answers: allow once, always allow server.tool, or deny with a note', async () => {
    await show(card(mcpApprovalExample))
    expect(one('approve-once').textContent).toBe('Allow once')
    const always = one('approve-always')
    expect(always.textContent).toBe('Always allow github.create_issue')
    expect(always.getAttribute('data-base')).toBe('github.create_issue')
    await React.act(() => click(browser.container, one('approve-once')))
    await React.act(() => click(browser.container, always))
    await React.act(() => typeInto(browser.container, one('deny-note'), 'not that repo'))
    await React.act(() => click(browser.container, one('deny')))
    expect(onDecide.mock.calls).toEqual([
      ['ap_2', 'approve', ''],
      ['ap_2', 'approve_always', '', ['github.create_issue']],
      ['ap_2', 'deny', 'not that repo'],
    ])
  })

  it('disables its answers while one is sent, and shows why one was not', async () => {
    await show(card(mcpApprovalExample, { sending: 'approve' }))
    for (const id of ['approve-once', 'approve-always', 'deny', 'deny-note']) expect(one(id).hasAttribute('disabled'), id).toBe(true)
    await show(card(mcpApprovalExample, { error: 'cannot reach the Wisp server' }))
    expect(one('approval-error').textContent).toBe('Your answer was not sent: cannot reach the Wisp server')
    expect(one('approve-once').hasAttribute('disabled')).toBe(false)
  })

  it('offers no grant when the server says none can cover it', async () => {
    await show(card({ ...mcpApprovalExample, grantable: [] }))
    expect(browser.container.byTestId('approve-always')).toHaveLength(0)
  })

  it('shows huge and hostile arguments in part, escaped, without freezing', async () => {
    const huge = { body: 'A'.repeat(2_000_000), spoof: 'ok\u202Eexe.txt', rows: Array.from({ length: 50_000 }, (_, i) => ({ i })) }
    const started = performance.now()
    await show(card({ ...mcpApprovalExample, arguments: huge }))
    expect(performance.now() - started).toBeLessThan(1000)
    const text = one('approval-mcp-arguments').textContent
    expect(text.length).toBeLessThanOrEqual(20_000)
    expect(text.startsWith('{\n  "body": "AAAA')).toBe(true)
    expect(one('approval-mcp-arguments-cut').textContent).toContain('Shown in part')

    await show(card({ ...mcpApprovalExample, arguments: { spoof: 'ok\u202Eexe.txt' } }))
    expect(one('approval-mcp-arguments').textContent).toBe('{\n  "spoof": "ok\\u202eexe.txt"\n}')
  })

  it('draws hidden characters in the arguments, keys and tool as escapes, and says how many', async () => {
    const args = { 'pa\u200bth': '/tmp/\u2067x\u2069', body: 'line one\nline two \u{e0068}\u{e0069}', bell: '\u0007\u009b' }
    await show(card({ ...mcpApprovalExample, arguments: args }))
    const el = one('approval-card')
    // 1 in the key, 2 isolates, 2 tags, the C1 control; the bell is escaped by JSON itself.
    expect(el.getAttribute('data-hidden-chars')).toBe('6')
    expect(one('approval-hidden-chars').textContent).toBe(
      'These arguments contain 6 hidden or direction-changing characters, shown as \\u…: what they look like elsewhere may differ from what the tool gets.',
    )
    const shown = one('approval-mcp-arguments')
    expect(shown.textContent).toBe(
      '{\n  "pa\\u200bth": "/tmp/\\u2067x\\u2069",\n  "body": "line one\\nline two \\u{e0068}\\u{e0069}",\n  "bell": "\\u0007\\x9b"\n}',
    )
    expect(shown.findAll((e) => e.getAttribute('data-hidden-char') !== null).map((m) => m.getAttribute('data-hidden-char'))).toEqual([
      'u+200b',
      'u+2067',
      'u+2069',
      'u+e0068',
      'u+e0069',
      'u+009b',
    ])
    expect(el.textContent).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]|[\u{e0000}-\u{e007f}]/u)
  })

  it('draws what the server wrote escaped too: its name, the tool’s name, title and description', async () => {
    const approval = {
      ...mcpApprovalExample,
      server: 'git\u200dhub',
      tool: 'create\u202eissue',
      toolTitle: 'Create\u00a0an issue',
      toolDescription: 'Opens an issue.\u2066 Also reads ~/.ssh\u2069',
      arguments: { repo: 'me/wisp' },
    }
    await show(card(approval))
    const el = one('approval-card')
    expect(el.getAttribute('data-hidden-chars')).toBe('5')
    expect(one('approval-hidden-chars').textContent).toBe(
      'The tool and the server’s name contain 5 hidden or direction-changing characters, shown as \\u…: what they look like elsewhere may differ from what the tool gets.',
    )
    expect(el.findAll((e) => e.tagName === 'STRONG')[0]?.textContent).toBe('Allow Create\\u00a0an issue from git\\u200dhub?')
    expect(one('approval-mcp-server').textContent).toBe('git\\u200dhub')
    expect(one('approval-mcp-tool').getAttribute('data-tool')).toBe('create\u202eissue')
    expect(one('approval-mcp-tool').textContent).toContain('create\\u202eissue')
    expect(one('approval-mcp-description').textContent).toBe('Opens an issue.\\u2066 Also reads ~/.ssh\\u2069')
    expect(one('approve-always').textContent).toBe('Always allow github.create_issue')
    expect(el.textContent).not.toMatch(/[\u00a0\u200b-\u200f\u202a-\u202e\u2066-\u2069]/)
  })

  it('shrinks to its outcome once decided', async () => {
    const decided = { ...mcpApprovalExample, status: 'approved' as const, decision: 'approve_always' as const, decidedAt: '2026-11-25T01:01:00Z' }
    await show(card(decided))
    const el = one('approval-card')
    expect(el.getAttribute('data-kind')).toBe('mcp')
    expect(one('approval-outcome').textContent).toBe('Allowed; always allowing github.create_issue from now on.')
    expect(el.byTestId('approve-once')).toHaveLength(0)
    expect(el.textContent).toContain('github.create_issue')
  })

  it('leaves a shell command to the shell card', async () => {
    await show(card(approvalExample))
    const el = one('approval-card')
    expect(el.getAttribute('data-kind')).toBe('shell')
    expect(one('approve-once').textContent).toBe('Run once')
    expect(one('approval-command').textContent).toBe('git status && rm -rf build')
    expect(el.byTestId('approve-always').map((b) => b.getAttribute('data-base'))).toEqual(['rm'])
    expect(el.byTestId('approval-mcp-arguments')).toHaveLength(0)
  })
})
