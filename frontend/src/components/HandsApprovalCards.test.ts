// The cards of the agent's hands in a (fake) document: a page to fetch (kind
// web), files to read (file_read) and a change to a file (file_edit, with its
// diff), their answers, and the diff view's numbering and bounds.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { Approval } from '../api'
import { approvalExample } from '../api/approvals.test-util'
import type { ApprovalCard as Card } from '../state/approvals'
import type { FakeBrowser, FakeElement } from '../state/fakeDom.test-util'
import { click, typeInto } from '../state/fakeEvents.test-util'
import { mountCards, type CardHarness } from './approvalCard.test-util'
import { MAX_DIFF_LINES, parseDiff } from './DiffView'
import { relativeTo, tildePath } from './homePath'

const card = (approval: Approval, over: Partial<Card> = {}): Card => ({ approval, sending: null, conflict: null, error: null, ...over })

const web: Approval = {
  ...approvalExample,
  id: 'ap_4',
  kind: 'web',
  toolName: 'FETCH_URL',
  command: '',
  cwd: '',
  url: 'https://docs.example.com/guide?page=2',
  reason: 'Read the guide you linked',
  bases: ['example.com'],
  grantable: ['example.com'],
}

const diff = '--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n # Notes\n-Helo\n+Hello\n'
const edit: Approval = {
  ...approvalExample,
  id: 'ap_5',
  kind: 'file_edit',
  toolName: 'EDIT_FILE',
  command: '',
  cwd: '',
  path: '/home/ada/project/notes.md',
  root: '/home/ada/project',
  reason: 'Fix the typo',
  diff,
  bases: ['/home/ada/project'],
  grantable: ['/home/ada/project'],
}
const read: Approval = { ...edit, id: 'ap_6', kind: 'file_read', toolName: 'READ_FILE', diff: '', reason: 'See the notes' }

describe('the cards of the web and files', () => {
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
  const question = () => one('approval-card').findAll((e) => e.tagName === 'STRONG')[0]?.textContent

  it('asks to fetch a page: the URL in full, its site, and the site to always allow', async () => {
    await h.show(card(web))
    expect(one('approval-card').getAttribute('data-kind')).toBe('web')
    expect(question()).toBe('Fetch a page from example.com?')
    expect(one('approval-url').textContent).toBe('https://docs.example.com/guide?page=2')
    expect(one('approval-site').textContent).toBe('example.com')
    expect(one('approval-reason').textContent).toBe('Read the guide you linked')
    expect(one('approve-always').textContent).toBe('Always allow example.com')
    await React.act(() => click(browser.container, one('approve-always')))
    await React.act(() => typeInto(browser.container, one('deny-note'), 'not that site'))
    await React.act(() => click(browser.container, one('deny')))
    expect(onDecide.mock.calls).toEqual([
      ['ap_4', 'approve_always', '', ['example.com']],
      ['ap_4', 'deny', 'not that site'],
    ])
  })

  it('asks to read in a folder, home as ~', async () => {
    await h.show(card(read))
    expect(question()).toBe('Read in ~/project?')
    expect(one('approval-path').textContent).toBe('notes.md')
    expect(one('approval-path').getAttribute('title')).toBe('/home/ada/project/notes.md')
    expect(one('approval-root').textContent).toBe('~/project')
    expect(one('approve-always').textContent).toBe('Always allow reading ~/project')
    expect(browser.container.byTestId('diff-view')).toHaveLength(0)
    await React.act(() => click(browser.container, one('approve-once')))
    await React.act(() => click(browser.container, one('approve-always')))
    expect(onDecide.mock.calls).toEqual([
      ['ap_6', 'approve', ''],
      ['ap_6', 'approve_always', '', ['/home/ada/project']],
    ])
  })

  it('asks to change a file with its diff, lines numbered and colored', async () => {
    await h.show(card(edit))
    expect(question()).toBe('Change notes.md?')
    expect(one('approve-always').textContent).toBe('Always allow edits under ~/project')
    const view = one('diff-view')
    expect(view.getAttribute('data-added')).toBe('1')
    expect(view.getAttribute('data-removed')).toBe('1')
    const rows = view.findAll((e) => e.tagName === 'TR')
    expect(rows.map((r) => r.getAttribute('data-kind'))).toEqual(['file', 'file', 'hunk', 'ctx', 'del', 'add'])
    expect(rows.map((r) => r.textContent)).toEqual([
      '--- a/notes.md',
      '+++ b/notes.md',
      '@@ -1,2 +1,2 @@',
      '11 # Notes',
      '2-Helo',
      '2+Hello',
    ])
    expect(rows[4]?.getAttribute('class')).toContain('diff-del')
    expect(rows[5]?.getAttribute('class')).toContain('diff-add')
  })

  it('escapes hidden characters in the diff and counts them', async () => {
    await h.show(card({ ...edit, diff: '@@ -1 +1 @@\n-a\n+a\u202eb\n' }))
    expect(one('approval-card').getAttribute('data-hidden-chars')).toBe('1')
    expect(one('diff-view').textContent).toContain('\\u202e')
  })

  it('draws a huge diff in part and says how much is not shown', async () => {
    const lines = Array.from({ length: MAX_DIFF_LINES + 500 }, (_, i) => `+line ${i}`).join('\n')
    const started = performance.now()
    await h.show(card({ ...edit, diff: `--- /dev/null\n+++ b/big.txt\n@@ -0,0 +1,${MAX_DIFF_LINES + 500} @@\n${lines}\n` }))
    expect(performance.now() - started).toBeLessThan(5000)
    expect(one('diff-view').getAttribute('data-added')).toBe(String(MAX_DIFF_LINES + 500))
    expect(one('diff-cut').textContent).toBe('503 more lines of the change are not shown here.')
  })

  it('shrinks to its outcome once decided', async () => {
    await h.show(card({ ...edit, status: 'approved', decision: 'approve' }))
    expect(one('approval-outcome').textContent).toBe('Allowed once.')
    expect(browser.container.byTestId('diff-view')).toHaveLength(0)
  })
})

describe('parseDiff', () => {
  it('numbers old and new lines across hunks, a new file and notes', () => {
    expect(parseDiff('--- /dev/null\n+++ b/a\n@@ -0,0 +1,2 @@\n+x\n+y\n\\ No newline at end of file\n')).toEqual([
      { kind: 'file', text: '--- /dev/null', old: '', new: '' },
      { kind: 'file', text: '+++ b/a', old: '', new: '' },
      { kind: 'hunk', text: '@@ -0,0 +1,2 @@', old: '', new: '' },
      { kind: 'add', text: 'x', old: '', new: 1 },
      { kind: 'add', text: 'y', old: '', new: 2 },
      { kind: 'note', text: '\\ No newline at end of file', old: '', new: '' },
    ])
    const two = parseDiff('@@ -3,2 +3,1 @@\n a\n-b\n@@ -10 +9 @@\n-c\n+d\n')
    expect(two.map((l) => [l.kind, l.old, l.new])).toEqual([
      ['hunk', '', ''],
      ['ctx', 3, 3],
      ['del', 4, ''],
      ['hunk', '', ''],
      ['del', 10, ''],
      ['add', '', 9],
    ])
  })
})

describe('paths', () => {
  it('shows the home folder as ~ and a path inside its root', () => {
    expect(tildePath('/home/ada/project')).toBe('~/project')
    expect(tildePath('/home/ada')).toBe('~')
    expect(tildePath('/root/x')).toBe('~/x')
    expect(tildePath('/homeless/x')).toBe('/homeless/x')
    expect(tildePath('/srv/data')).toBe('/srv/data')
    expect(relativeTo('/p/src/a.go', '/p')).toBe('src/a.go')
    expect(relativeTo('/p', '/p')).toBe('/p')
    expect(relativeTo('/px/a', '/p')).toBe('/px/a')
  })
})
