// The REMEMBER card in a (fake) document: the note shown verbatim as text,
// Save / Edit / Discard and the bodies they send, Esc leaving the edit, and
// the decided card's outcome.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Approval } from '../api'
import { memoryApprovalExample } from '../api/approvals.test-util'
import type { ApprovalCard as Card } from '../state/approvals'
import type { FakeBrowser, FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, typeInto } from '../state/fakeEvents.test-util'
import { mountCards, type CardHarness } from './approvalCard.test-util'

const card = (approval: Approval, over: Partial<Card> = {}): Card => ({ approval, sending: null, conflict: null, error: null, ...over })

describe('MemoryApprovalCard', () => {
  let h: CardHarness
  let browser: FakeBrowser
  let React: CardHarness['React']
  let onDecide: CardHarness['onDecide']

  beforeEach(async () => {
    h = await mountCards()
    ;({ browser, React, onDecide } = h)
  })
  afterEach(() => h.close())

  const one = (testId: string, within?: FakeElement): FakeElement => h.one(testId, within)
  const none = (testId: string) => expect(browser.container.byTestId(testId), testId).toHaveLength(0)

  it('shows the proposed note verbatim, as text: no markdown, no element from its markup', async () => {
    await h.show(card(memoryApprovalExample))
    const el = one('approval-card')
    expect(el.getAttribute('data-kind')).toBe('memory')
    expect(el.getAttribute('data-status')).toBe('pending')
    expect(el.findAll((e) => e.tagName === 'STRONG')[0]?.textContent).toBe('Remember this?')
    const shown = one('memory-proposal')
    expect(shown.textContent).toBe(memoryApprovalExample.text)
    expect(shown.findAll((e) => e.tagName === 'IMG' || e.tagName === 'STRONG' || e.tagName === 'EM')).toHaveLength(0)
    // Nothing of a shell command's or MCP call's card.
    for (const id of ['approval-command', 'approve-once', 'approve-always', 'deny', 'approval-mcp-arguments']) none(id)
    expect([one('memory-save'), one('memory-edit'), one('memory-discard')].map((b) => b.textContent)).toEqual(['Save', 'Edit', 'Discard'])
  })

  it('draws hidden characters of the note as escapes and says so', async () => {
    await h.show(card({ ...memoryApprovalExample, text: 'call me \u202eevil' }))
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('1')
    expect(one('memory-proposal').textContent).toBe('call me \\u202eevil')
    expect(one('approval-hidden-chars').textContent).toContain('This note contains 1 hidden')
  })

  it('Save approves the note as proposed; Discard denies it', async () => {
    await h.show(card(memoryApprovalExample))
    await React.act(() => click(browser.container, one('memory-save')))
    await React.act(() => click(browser.container, one('memory-discard')))
    expect(onDecide.mock.calls).toEqual([
      ['ap_3', 'approve', ''],
      ['ap_3', 'deny', ''],
    ])
  })

  it('Edit makes the note editable; Save sends approve with the edited text', async () => {
    await h.show(card(memoryApprovalExample))
    await React.act(() => click(browser.container, one('memory-edit')))
    none('memory-proposal')
    const text = one('memory-edit-text')
    expect(text.tagName).toBe('TEXTAREA')
    expect(text.value).toBe(memoryApprovalExample.text)
    await React.act(() => typeInto(browser.container, text, 'The user prefers green tea.'))
    await React.act(() => click(browser.container, one('memory-edit-save')))
    expect(onDecide.mock.calls).toEqual([['ap_3', 'approve', '', undefined, 'The user prefers green tea.']])
  })

  it('does not save an emptied note', async () => {
    await h.show(card(memoryApprovalExample))
    await React.act(() => click(browser.container, one('memory-edit')))
    await React.act(() => typeInto(browser.container, one('memory-edit-text'), '   '))
    expect(one('memory-edit-save').hasAttribute('disabled')).toBe(true)
    await React.act(() => click(browser.container, one('memory-edit-save')))
    expect(onDecide).not.toHaveBeenCalled()
  })

  it('Esc cancels the edit: the proposal shows again and nothing is sent', async () => {
    await h.show(card(memoryApprovalExample))
    await React.act(() => click(browser.container, one('memory-edit')))
    await React.act(() => typeInto(browser.container, one('memory-edit-text'), 'something else'))
    await React.act(() => keyDown(browser.container, one('memory-edit-text'), 'Escape'))
    none('memory-edit-text')
    expect(one('memory-proposal').textContent).toBe(memoryApprovalExample.text)
    // Cancel does the same.
    await React.act(() => click(browser.container, one('memory-edit')))
    await React.act(() => click(browser.container, one('memory-edit-cancel')))
    none('memory-edit-text')
    expect(onDecide).not.toHaveBeenCalled()
  })

  it('disables its answers while one is sent, and shows why one was not', async () => {
    await h.show(card(memoryApprovalExample, { sending: 'approve' }))
    for (const id of ['memory-save', 'memory-edit', 'memory-discard']) expect(one(id).hasAttribute('disabled'), id).toBe(true)
    await h.show(card(memoryApprovalExample, { error: 'cannot reach the Wisp server' }))
    expect(one('approval-error').textContent).toBe('Your answer was not sent: cannot reach the Wisp server')
  })

  it('a decided card says what happened', async () => {
    const decided = { ...memoryApprovalExample, decidedAt: '2026-11-25T01:01:00Z' }
    await h.show(card({ ...decided, status: 'approved', decision: 'approve' }))
    expect(one('approval-card').getAttribute('data-status')).toBe('approved')
    expect(one('approval-outcome').textContent).toBe('Saved to the memory.')
    none('memory-save')
    await h.show(card({ ...decided, status: 'denied', decision: 'deny' }))
    expect(one('approval-outcome').textContent).toBe('Discarded: not remembered.')
    await h.show(card({ ...decided, status: 'cancelled', decision: null }))
    expect(one('approval-outcome').textContent).toBe('Cancelled: the run was stopped.')
  })
})
