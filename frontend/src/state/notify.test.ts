import { describe, expect, it } from 'vitest'
import type { ProactiveMessageFrame } from '../api'
import { approvalExample, mcpApprovalExample, memoryApprovalExample } from '../api/approvals.test-util'
import { MAX_BODY_CHARS, Notifier, approvalNotice, pageAway, proactiveNotice, shortBody, type Notice } from './notify'

function frame(id: string, source: string, text = 'stretch your legs', conversationId = 'c1'): ProactiveMessageFrame {
  return {
    type: 'proactive-message',
    conversationId,
    message: { id, role: 'assistant', text, timestamp: 1, source },
  }
}

/** A notifier whose page and setting the test sets, and what it showed. */
function harness() {
  const env = { enabled: true, away: true }
  const shown: Notice[] = []
  const notifier = new Notifier({ enabled: () => env.enabled, away: () => env.away, show: (n) => shown.push(n) })
  return { env, shown, notifier }
}

describe('what a notification says', () => {
  it('names a proactive message by its source and opens its conversation', () => {
    expect(proactiveNotice(frame('m1', 'reminder'), 'Wisp')).toEqual({
      key: 'message:m1',
      title: 'Reminder from Wisp',
      body: 'stretch your legs',
      conversationId: 'c1',
    })
    expect(proactiveNotice(frame('m2', 'autonomy', 'Build done?'), 'Ada').title).toBe('Ada')
    expect(proactiveNotice(frame('m3', 'terminal', 'make finished (exit 0)'), 'Wisp').title).toBe('A terminal run ended')
    expect(proactiveNotice(frame('m4', 'task', 'Two new files'), 'Wisp').title).toBe('Scheduled task from Wisp')
  })

  it('says what waits for approval, for shell commands and MCP tools', () => {
    expect(approvalNotice(approvalExample, 'Wisp')).toEqual({
      key: 'approval:ap_1',
      title: 'Approval needed',
      body: 'Wisp wants to run: git status && rm -rf build',
      conversationId: 'c1',
    })
    expect(approvalNotice(mcpApprovalExample, 'Wisp')?.body).toBe(
      `Wisp wants to use ${mcpApprovalExample.server}.${mcpApprovalExample.tool}`,
    )
    expect(approvalNotice({ ...memoryApprovalExample, text: 'Prefers tea.\u202e' }, 'Wisp')?.body).toBe(
      'Wisp wants to remember: Prefers tea.\\u202e',
    )
  })

  it('escapes hidden and direction-changing characters the model or a server wrote', () => {
    const command = 'ls # \u202e hidden\nr\u200bm x'
    expect(approvalNotice({ ...approvalExample, command }, 'Wisp')?.body).toBe('Wisp wants to run: ls # \\u202e hidden\\nr\\u200bm x')
    expect(approvalNotice({ ...mcpApprovalExample, server: 'git\u2066hub', tool: 'x\u{e0041}' }, 'Wisp')?.body).toBe(
      'Wisp wants to use git\\u2066hub.x\\u{e0041}',
    )
  })

  it('has nothing to say about a decided or cancelled approval', () => {
    for (const status of ['approved', 'denied', 'cancelled'] as const) {
      expect(approvalNotice({ ...approvalExample, status }, 'Wisp')).toBeNull()
    }
  })

  it('keeps the body to one short line', () => {
    expect(shortBody('  two\n\nlines  ')).toBe('two lines')
    const long = shortBody('word '.repeat(100))
    expect([...long].length).toBeLessThanOrEqual(MAX_BODY_CHARS)
    expect(long.endsWith('…')).toBe(true)
    // Cut between characters, not inside a surrogate pair.
    expect(shortBody('😀'.repeat(MAX_BODY_CHARS + 5))).toBe(`${'😀'.repeat(MAX_BODY_CHARS - 1)}…`)
  })
})

describe('Notifier', () => {
  it('notifies while the page is away', () => {
    const { shown, notifier } = harness()
    expect(notifier.offer(proactiveNotice(frame('m1', 'reminder'), 'Wisp'))).toBe(true)
    expect(shown.map((n) => n.key)).toEqual(['message:m1'])
  })

  it('does not notify while the user looks at the page', () => {
    const { env, shown, notifier } = harness()
    env.away = false
    expect(notifier.offer(proactiveNotice(frame('m1', 'reminder'), 'Wisp'))).toBe(false)
    expect(shown).toEqual([])
  })

  it('does not notify when ui.notifications is off', () => {
    const { env, shown, notifier } = harness()
    env.enabled = false
    expect(notifier.offer(approvalNotice(approvalExample, 'Wisp'))).toBe(false)
    expect(shown).toEqual([])
  })

  it('never notifies twice for one event, even when its frame comes again', () => {
    const { shown, notifier } = harness()
    const notice = proactiveNotice(frame('m1', 'reminder'), 'Wisp')
    expect(notifier.offer(notice)).toBe(true)
    expect(notifier.offer(proactiveNotice(frame('m1', 'reminder'), 'Wisp'))).toBe(false)
    expect(notifier.offer(approvalNotice(approvalExample, 'Wisp'))).toBe(true)
    expect(notifier.offer(approvalNotice(approvalExample, 'Wisp'))).toBe(false)
    expect(shown.map((n) => n.key)).toEqual(['message:m1', 'approval:ap_1'])
  })

  it('does not notify later about an event the user saw when it came', () => {
    const { env, shown, notifier } = harness()
    env.away = false
    notifier.offer(proactiveNotice(frame('m1', 'reminder'), 'Wisp'))
    env.away = true
    expect(notifier.offer(proactiveNotice(frame('m1', 'reminder'), 'Wisp'))).toBe(false)
    expect(shown).toEqual([])
  })

  it('ignores a decided approval without forgetting the pending one', () => {
    const { shown, notifier } = harness()
    expect(notifier.offer(approvalNotice({ ...approvalExample, status: 'approved' }, 'Wisp'))).toBe(false)
    expect(notifier.offer(approvalNotice(approvalExample, 'Wisp'))).toBe(true)
    expect(shown).toHaveLength(1)
  })

  it('remembers a bounded number of events', () => {
    const { shown, notifier } = harness()
    for (let i = 0; i < 600; i++) notifier.offer(proactiveNotice(frame(`m${i}`, 'autonomy'), 'Wisp'))
    expect(shown).toHaveLength(600)
    // The most recent are still known; the oldest were let go.
    expect(notifier.offer(proactiveNotice(frame('m599', 'autonomy'), 'Wisp'))).toBe(false)
    expect(notifier.offer(proactiveNotice(frame('m0', 'autonomy'), 'Wisp'))).toBe(true)
  })
})

describe('pageAway', () => {
  it('is away when hidden or without the focus', () => {
    expect(pageAway({ hidden: false, hasFocus: () => true })).toBe(false)
    expect(pageAway({ hidden: true, hasFocus: () => true })).toBe(true)
    expect(pageAway({ hidden: false, hasFocus: () => false })).toBe(true)
  })
})
