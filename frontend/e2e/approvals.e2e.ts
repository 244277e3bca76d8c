// End to end shell approvals (docs/approvals.md): the real server binary with
// shell access on, the fake LLM scripted to ask for RUN_SHELL, the built UI,
// headless Chromium. Needs `npm run build`, the server binary (WISP_BIN,
// default ../build/bin/wisp-serve) and the fake LLM (WISP_FAKELLM_BIN,
// default ../build/bin/wisp-fakellm).

import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, freshStateDir, serverPerTest, type RunningServer } from './server'

const ASSISTANT = '[data-testid="message"][data-role="assistant"]'
const CARD = '[data-testid="approval-card"]'
const PENDING_CARD = `${CARD}[data-status="pending"]`

/** A model turn that asks to run command. */
function shellCall(id: string, command: string, reason: string) {
  return { toolCalls: [{ id, name: 'RUN_SHELL', arguments: { command, reason } }] }
}

/** The text a finished command leaves in the chat: "✓ <command> exited 0 in 0.1 s". */
function exitedLine(command: string): RegExp {
  const escaped = command.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(`✓ ${escaped} exited 0 in \\d+(\\.\\d)? s`)
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

async function send(page: Page, text: string): Promise<void> {
  await waitForComposer(page)
  await page.fill('[data-testid="composer"]', text)
  await page.click('[data-testid="send"]')
}

/** Waits for a pending card and returns its approval id. */
async function waitForPendingCard(page: Page): Promise<string> {
  const card = page.locator(PENDING_CARD)
  await card.waitFor({ timeout: UI_TIMEOUT })
  const id = await card.getAttribute('data-approval-id')
  expect(id).toMatch(/^ap_/)
  return id!
}

async function waitForCardStatus(page: Page, id: string, status: string): Promise<void> {
  await page.locator(`${CARD}[data-approval-id="${id}"][data-status="${status}"]`).waitFor({ timeout: UI_TIMEOUT })
}

/** Waits until there are n assistant replies and the last is done with text matching every pattern. */
async function waitForReply(page: Page, n: number, patterns: RegExp[]): Promise<string> {
  const sources = patterns.map((p) => [p.source, p.flags] as const)
  try {
    await page.waitForFunction(
      ([selector, count, want]) => {
        const bubbles = document.querySelectorAll(selector)
        const last = bubbles[bubbles.length - 1]
        const text = last?.querySelector('[data-testid="message-text"]')?.textContent ?? ''
        return (
          bubbles.length === count &&
          last?.getAttribute('data-status') === 'done' &&
          want.every(([src, flags]) => new RegExp(src, flags).test(text))
        )
      },
      [ASSISTANT, n, sources] as const,
      { timeout: UI_TIMEOUT },
    )
  } catch (err) {
    const seen = await page.locator(ASSISTANT).evaluateAll((els) =>
      els.map((el) => `[${el.getAttribute('data-status')}] ${el.querySelector('[data-testid="message-text"]')?.textContent ?? ''}`),
    )
    throw new Error(`reply ${n} never matched ${patterns.join(', ')}; replies: ${JSON.stringify(seen)}`, { cause: err })
  }
  return (await page.locator(ASSISTANT).last().locator('[data-testid="message-text"]').textContent()) ?? ''
}

/** The code blocks (fenced output) of the last reply. */
async function lastReplyBlocks(page: Page): Promise<string[]> {
  const blocks = await page.locator(ASSISTANT).last().locator('[data-testid="message-text"] pre').allTextContents()
  return blocks.map((b) => b.trim())
}

/** Records the id of every approval card the page shows from now on (window.__approvalIds). */
async function recordCards(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    const seen: string[] = []
    Object.assign(window, { __approvalIds: seen })
    const snap = () => {
      for (const el of document.querySelectorAll(selector)) {
        const id = el.getAttribute('data-approval-id') ?? ''
        if (!seen.includes(id)) seen.push(id)
      }
    }
    snap()
    new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, attributes: true })
  }, CARD)
}

async function cardsSeen(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __approvalIds: string[] }).__approvalIds)
}

async function pendingApprovals(s: RunningServer): Promise<{ id: string; command: string }[]> {
  const res = await fetch(`${s.url}/api/approvals`, { headers: s.auth })
  expect(res.status).toBe(200)
  return ((await res.json()) as { approvals: { id: string; command: string }[] }).approvals
}

async function terminalRuns(s: RunningServer): Promise<{ runId: string; command: string; agent: boolean }[]> {
  const res = await fetch(`${s.url}/api/terminal/runs`, { headers: s.auth })
  expect(res.status).toBe(200)
  return ((await res.json()) as { runs: { runId: string; command: string; agent: boolean }[] }).runs
}

describe('shell approvals', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null
  let stateDir: string | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
    if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true })
    stateDir = null
  })

  /** The fake model with script, and a server with shell access on that talks to it. */
  async function startScripted(script: unknown[]): Promise<RunningServer> {
    llm = await startFakeLLM({ script })
    stateDir = freshStateDir()
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ features: { shellEnabled: true } }))
    return start({ stateDir, env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
  }

  it('asks before printf, keeps the card over a reload, runs it once and shows the output in the chat and the Terminal panel', async () => {
    const command = "printf 'hi\\n'"
    const s = await startScripted([shellCall('call_1', command, 'say hi'), { text: 'It printed hi.' }])

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await send(page, 'please say hi in the shell')

      // The run pauses: a card with the command, the model's reason and its base command.
      const id = await waitForPendingCard(page)
      const card = page.locator(`${CARD}[data-approval-id="${id}"]`)
      expect(await card.locator('[data-testid="approval-command"]').textContent()).toBe(command)
      expect(await card.locator('[data-testid="approval-reason"]').textContent()).toBe('say hi')
      expect(await card.locator('[data-testid="approval-bases"] code').allTextContents()).toEqual(['printf'])
      expect(await card.locator('[data-testid="approve-always"]').getAttribute('data-base')).toBe('printf')
      await page.locator(`${ASSISTANT} [data-testid="tool-card"][data-status="waiting"]`).waitFor({ timeout: UI_TIMEOUT })
      expect((await pendingApprovals(s)).map((a) => [a.id, a.command])).toEqual([[id, command]])

      // The screenshot shows the card, drawn.
      await card.scrollIntoViewIfNeeded()
      expect(await card.isVisible()).toBe(true)
      const box = await card.boundingBox()
      expect(box, 'card box').not.toBeNull()
      expect(box!.width, JSON.stringify(box)).toBeGreaterThan(250)
      expect(box!.height, JSON.stringify(box)).toBeGreaterThan(80)
      const png = await card.screenshot({ path: artifact('approval-card.png') })
      const ink = await inkShare(page, png)
      expect(ink, 'share of the card screenshot that is text or borders').toBeGreaterThan(0.01)

      // A reload while paused keeps the card, still pending.
      await page.reload()
      await page.locator(PENDING_CARD).first().waitFor({ timeout: UI_TIMEOUT })
      const cardIds = await page.locator(CARD).evaluateAll((els) => els.map((el) => el.getAttribute('data-approval-id')))
      expect(cardIds, 'one card for the paused run after the reload').toEqual([id])
      await waitForCardStatus(page, id, 'pending')
      // With another chat open, the sidebar marks the paused conversation; back in it, the card waits.
      await page.click('[data-testid="new-chat"]')
      const item = page.locator('[data-testid="conversation-item"]')
      await item.locator('[data-testid="approval-pending-mark"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator(CARD).count()).toBe(0)
      await item.locator('.conversation-open').click()
      await waitForCardStatus(page, id, 'pending')
      expect(await item.locator('[data-testid="approval-pending-mark"]').count()).toBe(0)

      // Run once: the run resumes, the command runs, its output reaches the chat.
      await page.click(`${CARD}[data-approval-id="${id}"] [data-testid="approve-once"]`)
      await waitForCardStatus(page, id, 'approved')
      expect(await card.locator('[data-testid="approval-outcome"]').textContent()).toBe('Allowed once.')
      const text = await waitForReply(page, 1, [exitedLine(command), /It printed hi\./])
      expect(text, text).not.toContain('Running')
      expect(await lastReplyBlocks(page)).toEqual(['hi'])
      expect(await pendingApprovals(s)).toEqual([])

      // Show in Terminal: the panel opens on the agent's run, with its output.
      const tool = page.locator(`${ASSISTANT} [data-testid="tool-card"][data-status="completed"]`)
      await tool.waitFor({ timeout: UI_TIMEOUT })
      const link = tool.locator('[data-testid="open-terminal-run"]')
      const runId = await link.getAttribute('data-run-id')
      expect(runId).not.toBeNull()
      expect((await terminalRuns(s)).map((r) => [r.runId, r.command, r.agent])).toEqual([[runId, command, true]])
      await link.click()
      await page.locator('[data-testid="terminal-panel"]').waitFor({ timeout: UI_TIMEOUT })
      const row = page.locator(`[data-testid="terminal-run"][data-run-id="${runId}"]`)
      await row.waitFor({ timeout: UI_TIMEOUT })
      expect(await row.getAttribute('aria-current')).toBe('true')
      expect(await row.locator('.terminal-run-command').textContent()).toBe(command)
      expect(await row.locator('.run-agent').count()).toBe(1)
      await page.waitForFunction(
        (want) => {
          const el = document.querySelector('[data-testid="terminal-status"]')
          const rows = document.querySelector('[data-testid="terminal-screen"] .xterm-rows')
          const lines = [...(rows?.children ?? [])].map((r) => r.textContent?.trim())
          return el?.getAttribute('title') === want && el.getAttribute('data-status') === 'exited' && lines.includes('hi')
        },
        runId,
        { timeout: UI_TIMEOUT },
      )
      expect(await page.locator('[data-testid="terminal-status"]').textContent()).toBe('Exited with 0')
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('shows hidden and direction-changing characters of a command escaped and flagged, and never raw', async () => {
    // A zero-width space inside a word and a right-to-left override that would flip the comment.
    const command = "printf 'o\u200bk\\n' # \u202e txt.exe"
    const s = await startScripted([shellCall('call_1', command, 'print ok'), { text: 'I left it.' }])

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await send(page, 'print ok')

      const id = await waitForPendingCard(page)
      const card = page.locator(`${CARD}[data-approval-id="${id}"]`)
      // The approval is the command as the model wrote it; the card draws it escaped.
      expect((await pendingApprovals(s)).map((a) => a.command)).toEqual([command])
      expect(await card.getAttribute('data-hidden-chars')).toBe('2')
      const note = card.locator('[data-testid="approval-hidden-chars"]')
      expect(await note.isVisible()).toBe(true)
      expect(await note.textContent()).toBe(
        'This command contains 2 hidden or direction-changing characters, shown as \\u…: what it looks like elsewhere may differ from what runs.',
      )
      const shown = card.locator('[data-testid="approval-command"]')
      expect(await shown.textContent()).toBe("printf 'o\\u200bk\\n' # \\u202e txt.exe")
      for (const [code, escape] of [
        ['u+200b', '\\u200b'],
        ['u+202e', '\\u202e'],
      ]) {
        const mark = shown.locator(`[data-hidden-char="${code}"]`)
        expect(await mark.isVisible(), code).toBe(true)
        expect(await mark.textContent()).toBe(escape)
        expect(await mark.getAttribute('title')).toMatch(/^U\+20(0B ZERO WIDTH SPACE|2E RIGHT-TO-LEFT OVERRIDE): /)
      }
      // Drawn in the order bash reads it, left to right.
      expect(await shown.evaluate((el) => [getComputedStyle(el).unicodeBidi, getComputedStyle(el).direction])).toEqual([
        'bidi-override',
        'ltr',
      ])
      // Nothing raw anywhere on the card, nor in the reply's tool card.
      const raw = /[\u200b\u202e]/
      expect(await card.textContent()).not.toMatch(raw)
      const tool = page.locator(`${ASSISTANT} [data-testid="tool-card"][data-status="waiting"]`)
      await tool.waitFor({ timeout: UI_TIMEOUT })
      expect(await tool.textContent()).not.toMatch(raw)

      // The screenshot shows the card with its note and escapes, drawn.
      await card.scrollIntoViewIfNeeded()
      const box = await card.boundingBox()
      expect(box, 'card box').not.toBeNull()
      expect(box!.width, JSON.stringify(box)).toBeGreaterThan(250)
      expect(box!.height, JSON.stringify(box)).toBeGreaterThan(80)
      const png = await card.screenshot({ path: artifact('approval-card-hidden.png') })
      const ink = await inkShare(page, png)
      expect(ink, 'share of the card screenshot that is text or borders').toBeGreaterThan(0.01)

      // Denied: the decided card's one line is escaped too.
      await card.locator('[data-testid="deny"]').click()
      await waitForCardStatus(page, id, 'denied')
      const inline = card.locator('.approval-command-inline')
      expect(await inline.textContent()).toBe("printf 'o\\u200bk\\n' # \\u202e txt.exe")
      expect(await inline.getAttribute('title')).toBe("printf 'o\\u200bk\\n' # \\u202e txt.exe")
      await waitForReply(page, 1, [/I left it\./])
      expect(await card.textContent()).not.toMatch(raw)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('always allows printf: the next printf runs without asking, printf x; rm -f y still asks', async () => {
    const again = "printf 'again\\n'"
    const mixed = 'printf x; rm -f y'
    const s = await startScripted([
      shellCall('call_1', "printf 'hi\\n'", 'say hi'),
      { text: 'It printed hi.' },
      // The conversation's title, asked for after its first exchange.
      { text: 'Saying hi' },
      shellCall('call_2', again, 'say it again'),
      { text: 'It printed again.' },
      shellCall('call_3', mixed, 'tidy up'),
      { text: 'I will leave y alone.' },
    ])

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await recordCards(page)
      await send(page, 'please say hi in the shell')

      // Always allow printf: it runs, and a grant for printf is saved.
      const printfId = await waitForPendingCard(page)
      await page.click(`${CARD}[data-approval-id="${printfId}"] [data-testid="approve-always"][data-base="printf"]`)
      await waitForCardStatus(page, printfId, 'approved')
      expect(await page.locator(`${CARD}[data-approval-id="${printfId}"] [data-testid="approval-outcome"]`).textContent()).toBe(
        'Allowed; always allowing printf from now on.',
      )
      await waitForReply(page, 1, [exitedLine("printf 'hi\\n'"), /It printed hi\./])
      expect(await lastReplyBlocks(page)).toEqual(['hi'])
      // The title request took its scripted turn before the next message is sent.
      await page
        .locator('[data-testid="conversation-item"] [data-testid="conversation-title"]', { hasText: 'Saying hi' })
        .waitFor({ timeout: UI_TIMEOUT })

      await page.click('[data-testid="settings-toggle"]')
      const grants = page.locator('[data-testid="settings-section-grants"] [data-testid="grants-list"]')
      await grants.waitFor({ timeout: UI_TIMEOUT })
      expect(await grants.locator('[data-testid="grant"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-base')))).toEqual([
        'printf',
      ])
      await page.click('[data-testid="settings-close"]')
      await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: UI_TIMEOUT })

      // The next printf runs without a card.
      await send(page, 'say it again')
      await waitForReply(page, 2, [exitedLine(again), /It printed again\./])
      expect(await lastReplyBlocks(page)).toEqual(['again'])
      expect(await cardsSeen(page)).toEqual([printfId])
      expect(await pendingApprovals(s)).toEqual([])
      expect(await page.locator(`${ASSISTANT} [data-testid="tool-card"][data-status="completed"]`).count()).toBe(2)

      // printf x; rm -f y still asks, offering rm alone.
      await send(page, 'now tidy up')
      const mixedId = await waitForPendingCard(page)
      expect(mixedId).not.toBe(printfId)
      const card = page.locator(`${CARD}[data-approval-id="${mixedId}"]`)
      expect(await card.locator('[data-testid="approval-command"]').textContent()).toBe(mixed)
      expect(await card.locator('[data-testid="approval-bases"] code').allTextContents()).toEqual(['printf', 'rm'])
      expect(
        await card.locator('[data-testid="approve-always"]').evaluateAll((els) => els.map((el) => el.getAttribute('data-base'))),
      ).toEqual(['rm'])
      expect((await pendingApprovals(s)).map((a) => [a.id, a.command])).toEqual([[mixedId, mixed]])

      // Denied with a note: the command never runs and the turn goes on.
      await card.locator('[data-testid="deny-note"]').fill('keep y')
      await card.locator('[data-testid="deny"]').click()
      await waitForCardStatus(page, mixedId, 'denied')
      expect(await card.locator('[data-testid="approval-outcome"]').textContent()).toBe('Denied: “keep y”')
      await waitForReply(page, 3, [/I will leave y alone\./])
      expect((await terminalRuns(s)).map((r) => r.command).sort()).toEqual([again, "printf 'hi\\n'"].sort())
      expect(await cardsSeen(page)).toEqual([printfId, mixedId])
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
