// SCHEDULE_TASK's card in a (fake) document: the prompt and the schedule as
// text, Allow and Deny with a note (never an "always" answer), hidden
// characters drawn as escapes, and the decided card's outcome.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Approval } from '../api'
import { taskApprovalExample } from '../api/tasks.test-util'
import type { ApprovalCard as Card } from '../state/approvals'
import type { FakeElement } from '../state/fakeDom.test-util'
import { click, typeInto } from '../state/fakeEvents.test-util'
import { mountCards, type CardHarness } from './approvalCard.test-util'

const card = (over: Partial<Approval> = {}, more: Partial<Card> = {}): Card => ({
  approval: { ...taskApprovalExample, ...over },
  sending: null,
  conflict: null,
  error: null,
  ...more,
})

describe('TaskApprovalCard', () => {
  let h: CardHarness
  beforeEach(async () => {
    h = await mountCards()
  })
  afterEach(() => h.close())

  const one = (testId: string, within?: FakeElement): FakeElement => h.one(testId, within)
  const none = (testId: string) => expect(h.browser.container.byTestId(testId), testId).toHaveLength(0)

  it('shows the prompt and the schedule in words, with Allow and Deny only', async () => {
    await h.show(card({ text: 'Check my inbox **now** <img src=x>' }))
    const el = one('approval-card')
    expect(el.getAttribute('data-kind')).toBe('task')
    expect(el.findAll((e) => e.tagName === 'STRONG')[0]?.textContent).toBe('Schedule this task?')
    expect(one('task-approval-prompt').textContent).toBe('Check my inbox **now** <img src=x>')
    expect(one('task-approval-prompt').findAll((e) => e.tagName === 'IMG' || e.tagName === 'STRONG')).toHaveLength(0)
    expect(one('task-approval-schedule').textContent).toBe('every weekday at 09:00')
    expect(one('approve-once').textContent).toBe('Allow')
    none('approve-always')
    one('deny')
  })

  it('Allow approves; Deny sends the note', async () => {
    await h.show(card())
    await h.React.act(() => click(h.browser.container, one('approve-once')))
    await h.React.act(() => typeInto(h.browser.container, one('deny-note'), 'not every day'))
    await h.React.act(() => click(h.browser.container, one('deny')))
    expect(h.onDecide.mock.calls).toEqual([
      ['ap_6', 'approve', ''],
      ['ap_6', 'deny', 'not every day'],
    ])
  })

  it('draws hidden characters of the prompt and schedule as escapes and counts them', async () => {
    await h.show(card({ text: 'summarise \u202eevil', schedule: 'daily\u200b' }))
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('2')
    expect(one('task-approval-prompt').textContent).toBe('summarise \\u202eevil')
    expect(one('task-approval-schedule').textContent).toBe('daily\\u200b')
    expect(one('approval-hidden-chars').textContent).toContain('This prompt and its schedule contain')
  })

  it('disables the answers while one is sent', async () => {
    await h.show(card({}, { sending: 'approve' }))
    expect(one('approve-once').hasAttribute('disabled')).toBe(true)
    expect(one('deny').hasAttribute('disabled')).toBe(true)
  })

  it('shrinks to its outcome once decided', async () => {
    await h.show(card({ status: 'denied', decision: 'deny', note: 'no' }))
    none('approve-once')
    expect(one('approval-outcome').textContent).toBe('Denied: “no”')
  })
})
