// The context meter and summaries end to end: the real server binary, the
// fake LLM with a small context window (a summary request, recognised by the
// summary prompt in its system message, gets a scripted answer; chat turns are
// echoed as "You said: <text>"), the built UI, headless Chromium. Long
// messages make the meter move after each reply, then cross the summary
// threshold: the row "Earlier in this conversation" appears, collapsed, and
// opens on a click to show the summary; a screenshot shows it drawn.

import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, freshStateDir, serverPerTest } from './server'

/** How the summary request's system prompt begins (the const app/chat exports). */
const SUMMARY_PROMPT = 'You summarise a conversation'
const SUMMARY_TEXT = 'Earlier the user sent long notes about a trip to Lisbon in May.'
// The window holds the system prompt with every action Wisp offers (about 1,700
// tokens), the reply's 256 and one long note, not two.
const WINDOW = 4000
const ROW = '[data-testid="summary-row"]'
const METER = '[data-testid="context-meter"]'
const ASSISTANT = '[data-testid="message"][data-role="assistant"]'

/** A message of about 1.5 KB: the n-th note of the trip. */
function longNote(n: number): string {
  const words = Array.from({ length: 240 }, (_, i) => `note${n}-${i}`)
  return `Trip note ${n}: ${words.join(' ')}`
}

/** The meter's tokens used now (null while it shows none). */
async function meterUsed(page: Page): Promise<number | null> {
  const v = await page.locator(METER).getAttribute('data-used', { timeout: UI_TIMEOUT }).catch(() => null)
  return v === null ? null : Number(v)
}

describe('the context meter and summaries', () => {
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

  it('moves the meter after each reply, then shows a summary that opens on a click', async () => {
    // A routed turn: it answers every summary request; chat turns are echoed.
    const summaryTurn = { when: { systemContains: SUMMARY_PROMPT }, text: [SUMMARY_TEXT.slice(0, 20), SUMMARY_TEXT.slice(20)] }
    llm = await startFakeLLM({ delay: '1ms', window: WINDOW, script: [summaryTurn] })
    stateDir = freshStateDir()
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ model: { contextWindow: WINDOW, maxTokens: 256 } }))
    const s = await start({ stateDir, env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      const used: number[] = []
      for (let n = 1; n <= 10 && (await page.locator(ROW).count()) === 0; n++) {
        const before = await meterUsed(page)
        await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
        await page.fill('[data-testid="composer"]', longNote(n))
        await page.click('[data-testid="send"]')
        // The reply is done, and the meter has been read again after it.
        await page.waitForFunction(
          ([sel, count]) => {
            const replies = [...document.querySelectorAll(sel)]
            return replies.length === count && replies.every((r) => r.getAttribute('data-status') === 'done')
          },
          [ASSISTANT, n] as const,
          { timeout: UI_TIMEOUT },
        )
        await page.waitForFunction(
          ([sel, prev]) => {
            const v = document.querySelector(sel)?.getAttribute('data-used')
            return v != null && Number(v) !== prev
          },
          [METER, before ?? -1] as const,
          { timeout: UI_TIMEOUT },
        )
        used.push((await meterUsed(page)) ?? -1)
      }
      // The meter moved: the second reply's context is larger than the first's.
      expect(used.length).toBeGreaterThan(1)
      expect(used[1]!).toBeGreaterThan(used[0]!)
      expect(await page.locator(METER).getAttribute('data-window')).toBe(String(WINDOW))
      // Its tooltip says when the next summary happens.
      expect(await page.locator(METER).getAttribute('title')).toMatch(/A summary of older messages is made at|summarised on the next turn/)

      // The summary appears, collapsed, saying what it covers.
      const row = page.locator(ROW).first()
      await page.waitForSelector(`${ROW}[data-status="done"]`, { timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="summary-covers"]').textContent()).toMatch(/^Summary of \d+ messages?/)
      const toggle = row.locator('[data-testid="summary-toggle"]')
      expect(await toggle.getAttribute('aria-expanded')).toBe('false')
      expect(await row.locator('[data-testid="summary-text"]').isVisible()).toBe(false)

      // It expands on a click, showing the model's summary.
      await toggle.click()
      expect(await toggle.getAttribute('aria-expanded')).toBe('true')
      await row.locator('[data-testid="summary-text"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="summary-text"]').textContent()).toBe(SUMMARY_TEXT)

      // Drawn: the row and the chat around it are not blank.
      await row.scrollIntoViewIfNeeded()
      const rowPng = await row.screenshot({ path: artifact('context-summary-row.png') })
      expect(await inkShare(page, rowPng), 'share of the summary row that is text or borders').toBeGreaterThan(0.01)
      const viewPng = await page.locator('section.chat-view').screenshot({ path: artifact('context-summary.png') })
      expect(await inkShare(page, viewPng), 'share of the chat that is text or borders').toBeGreaterThan(0.005)
    })
  })
})
