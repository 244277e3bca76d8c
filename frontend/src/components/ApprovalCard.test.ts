// The shell command's approval card in a (fake) document, shown what an
// attacker-steered model could write: hidden and direction-changing
// characters are drawn as escapes, never raw, counted on the card and said so
// above the command.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Approval } from '../api'
import { approvalExample } from '../api/approvals.test-util'
import type { ApprovalCard as Card } from '../state/approvals'
import type { FakeElement } from '../state/fakeDom.test-util'
import { mountCards, type CardHarness } from './approvalCard.test-util'

const card = (over: Partial<Approval>): Card => ({ approval: { ...approvalExample, ...over }, sending: null, conflict: null, error: null })

/** Anything the card must never draw raw: bidi controls, zero-width and other invisible characters, controls. */
const RAW_HIDDEN = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u00a0\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]|[\u{e0000}-\u{e007f}]/u

describe('ApprovalCard (shell)', () => {
  let h: CardHarness

  beforeEach(async () => {
    h = await mountCards()
  })
  afterEach(() => h.close())

  const show = (c: Card) => h.show(c)
  const one = (testId: string, within?: FakeElement): FakeElement => h.one(testId, within)
  const marks = (el: FakeElement) => el.findAll((e) => e.getAttribute('data-hidden-char') !== null)

  it('shows a plain command as it is, with no note', async () => {
    await show(card({}))
    const el = one('approval-card')
    expect(el.getAttribute('data-hidden-chars')).toBe('0')
    expect(el.byTestId('approval-hidden-chars')).toHaveLength(0)
    expect(one('approval-command').textContent).toBe('git status && rm -rf build')
    expect(one('approval-cwd').textContent).toBe('/home/me/src/wisp')
    expect(one('approval-reason').textContent).toBe('See what changed before cleaning')
    expect(one('approval-bases').findAll((e) => e.tagName === 'CODE').map((c) => c.textContent)).toEqual(['git', 'rm'])
    expect(marks(el)).toHaveLength(0)
  })

  it('draws an override and a zero-width space as escapes, and says so above the command', async () => {
    const command = 'ls # \u202e hidden; r\u200bm -rf x'
    await show(card({ command, bases: ['ls', 'r\u200bm'], grantable: ['r\u200bm'] }))
    const el = one('approval-card')
    expect(el.getAttribute('data-hidden-chars')).toBe('2')
    const note = one('approval-hidden-chars')
    expect(note.getAttribute('data-count')).toBe('2')
    expect(note.textContent).toBe(
      'This command contains 2 hidden or direction-changing characters, shown as \\u…: what it looks like elsewhere may differ from what runs.',
    )
    // The note comes before the command.
    const order = el.findAll((e) => e === note || e.getAttribute('data-testid') === 'approval-command')
    expect(order.map((e) => e.getAttribute('data-testid'))).toEqual(['approval-hidden-chars', 'approval-command'])

    const shown = one('approval-command')
    expect(shown.textContent).toBe('ls # \\u202e hidden; r\\u200bm -rf x')
    expect(marks(shown).map((m) => [m.getAttribute('data-hidden-char'), m.getAttribute('class'), m.getAttribute('title'), m.textContent])).toEqual([
      ['u+202e', 'hidden-char hidden-bidi', 'U+202E RIGHT-TO-LEFT OVERRIDE: changes the direction text is drawn in', '\\u202e'],
      ['u+200b', 'hidden-char hidden-invisible', 'U+200B ZERO WIDTH SPACE: drawn as nothing', '\\u200b'],
    ])
    // The bases, and the button that would grant one, escape it too; the grant sent is the real base.
    expect(one('approval-bases').textContent).toBe('lsr\\u200bm')
    const always = one('approve-always')
    expect(always.textContent).toBe('Always allow r\\u200bm')
    expect(always.getAttribute('title')).toBe('Run it, and from now on let Wisp run r\\u200bm without asking')
    expect(always.getAttribute('data-base')).toBe('r\u200bm')
    expect(el.textContent).not.toMatch(RAW_HIDDEN)
  })

  it('counts the directory and the reason too, and names them', async () => {
    await show(card({ cwd: '/tmp/\u2066x\u2069', reason: 'tidy\u00a0up\x1b[2J', command: 'ls' }))
    const el = one('approval-card')
    expect(el.getAttribute('data-hidden-chars')).toBe('4')
    expect(one('approval-hidden-chars').textContent).toBe(
      'Its directory and its reason contain 4 hidden or direction-changing characters, shown as \\u…: what they look like elsewhere may differ from what runs.',
    )
    expect(one('approval-cwd').textContent).toBe('/tmp/\\u2066x\\u2069')
    expect(one('approval-reason').textContent).toBe('tidy\\u00a0up\\x1b[2J')
    expect(el.textContent).not.toMatch(RAW_HIDDEN)
  })

  it('marks each new line of a command, and keeps the line', async () => {
    await show(card({ command: 'echo hi\nrm -rf ~', bases: ['echo', 'rm'] }))
    const shown = one('approval-command')
    expect(shown.textContent).toBe('echo hi↵\nrm -rf ~')
    expect(marks(shown).map((m) => m.getAttribute('data-hidden-char'))).toEqual(['u+000a'])
    // A new line is not hidden: no note.
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('0')
  })

  it('tags and a lone surrogate are escapes, a family emoji is itself', async () => {
    const family = '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}'
    await show(card({ command: `echo ${family} ok\u{e0041}\u{e0042} \ud800` }))
    expect(one('approval-command').textContent).toBe(`echo ${family} ok\\u{e0041}\\u{e0042} \\ud800`)
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('3')
  })

  it('escapes its decided one-line form and its title', async () => {
    const command = 'ls\u202e\nrm x'
    await show(card({ command, status: 'denied', decision: 'deny', note: 'no\u200b', decidedAt: '2026-11-25T01:01:00Z' }))
    const el = one('approval-card')
    const inline = el.findAll((e) => e.getAttribute('class') === 'approval-command-inline as-run')[0]!
    expect(inline.textContent).toBe('ls\\u202e\\nrm x')
    expect(inline.getAttribute('title')).toBe('ls\\u202e\\nrm x')
    expect(one('approval-outcome').textContent).toBe('Denied: “no\\u200b”')
    expect(el.getAttribute('data-hidden-chars')).toBe('1')
    expect(el.textContent).not.toMatch(RAW_HIDDEN)
  })

  it('draws a hostile 8 KB command whole, bounded in marks', async () => {
    const command = 'a\u202e'.repeat(4096)
    await show(card({ command }))
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('4096')
    const shown = one('approval-command')
    expect(shown.textContent).toBe('a\\u202e'.repeat(4096))
    expect(marks(shown).length).toBeLessThanOrEqual(2_000)
    expect(shown.textContent).not.toMatch(RAW_HIDDEN)
  })
})
