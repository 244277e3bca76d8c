// Search over all history in the browser: conversations made through the API
// (the fake model echoes), the palette opened with Ctrl+K, words typed, the
// matches marked in the snippets (message text stays text), a result chosen
// with the keyboard, and its conversation opened at that message, which
// flashes. Needs the built UI, the server binary (WISP_BIN) and the fake LLM
// (WISP_FAKELLM_BIN).

import { existsSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { pageURL, serverPerTest, type RunningServer } from './server'

interface Message {
  id: string
  role: string
  text: string
}

async function call<T>(s: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...s.auth } }
  if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' }
    init.body = JSON.stringify(body)
  }
  const res = await fetch(`${s.url}${path}`, init)
  const out = (await res.json()) as T
  expect(res.status, `${method} ${path}: ${JSON.stringify(out)}`).toBe(200)
  return out
}

/** A conversation with these user messages, each answered (the fake model echoes it). */
async function conversation(s: RunningServer, title: string, texts: string[]): Promise<{ id: string; messages: Message[] }> {
  const { conversation: c } = await call<{ conversation: { id: string } }>(s, 'POST', '/api/conversations', { title })
  for (const text of texts) await call(s, 'POST', `/api/conversations/${c.id}/messages`, { text })
  const { messages } = await call<{ messages: Message[] }>(s, 'GET', `/api/conversations/${c.id}/messages`)
  return { id: c.id, messages }
}

const filler = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `filler note ${from + i} about nothing much at all`)

const PALETTE = '[data-testid="search-palette"]'
const RESULT = '[data-testid="search-result"]'

async function resultIds(page: Page): Promise<(string | null)[]> {
  return page.locator(RESULT).evaluateAll((els) => els.map((el) => el.getAttribute('data-message-id')))
}

describe('search', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })
  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('finds a message in any conversation and opens it there, from Ctrl+K', async () => {
    llm = await startFakeLLM({ delay: '0ms' })
    const s = await start({ env: fakeModelEnv(llm.url) })
    // The message to find is early in a long conversation: opening it must scroll up to it.
    const trip = await conversation(s, 'Island trip', [
      ...filler(3),
      'Book the lighthouse keeper tour on Ærø for Saturday',
      ...filler(26, 3),
    ])
    await conversation(s, 'Reading list', ['a novel about a lighthouse keeper and the sea'])
    await conversation(s, 'Hostile', ['<img src=x onerror="window.__xss=1"> lighthouse keepers <b>bold</b>'])
    const target = trip.messages.find((m) => m.role === 'user' && m.text.includes('Ærø'))
    expect(target).toBeDefined()

    await withBrowser(async (page) => {
      await page.goto(pageURL(s, '#/'))
      await page.waitForSelector('[data-testid="search-open"]', { timeout: UI_TIMEOUT })
      await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })

      await page.keyboard.press('Control+k')
      await page.waitForSelector(`${PALETTE} [data-testid="search-input"]:focus`, { timeout: UI_TIMEOUT })
      await page.keyboard.type('lighthouse kee')
      await page.waitForFunction(
        ([palette, result]) =>
          document.querySelector(palette)?.getAttribute('data-state') === 'ready' && document.querySelectorAll(result).length === 6,
        [PALETTE, RESULT] as const,
        { timeout: UI_TIMEOUT },
      )
      // Three messages and their echoes; every snippet marks the words typed, the last
      // one as a prefix ("kee…").
      const marks = await page.locator(`${RESULT} mark`).allTextContents()
      const counts: Record<string, number> = {}
      for (const m of marks) counts[m.toLowerCase()] = (counts[m.toLowerCase()] ?? 0) + 1
      expect(counts).toEqual({ lighthouse: 6, keeper: 4, keepers: 2 })
      // Markup in a message is text in its snippet: no element made, no script run.
      const hostile = page.locator(RESULT).filter({ hasText: 'onerror' }).first()
      expect(await hostile.locator('[data-testid="search-snippet"]').textContent()).toContain('<img src=x onerror="window.__xss=1">')
      expect(await page.locator(`${PALETTE} img, ${PALETTE} b`).count()).toBe(0)
      expect(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss)).toBeUndefined()

      const png = await page.locator(PALETTE).screenshot({ path: artifact('search-palette.png') })
      expect(await inkShare(page, png), 'share of the palette screenshot that is text or borders').toBeGreaterThan(0.01)

      // Down to the trip's message, and Enter.
      const ids = await resultIds(page)
      const index = ids.indexOf(target!.id)
      expect(index).toBeGreaterThanOrEqual(0)
      for (let i = 0; i < index; i++) await page.keyboard.press('ArrowDown')
      await page.waitForSelector(`${RESULT}[aria-selected="true"][data-message-id="${target!.id}"]`, { timeout: UI_TIMEOUT })
      await page.keyboard.press('Enter')

      // The trip opens at that message, which flashes; the palette is gone.
      const found = `[data-testid="message"][data-message-id="${target!.id}"]`
      await page.waitForSelector(`${found}[data-found]`, { timeout: UI_TIMEOUT })
      expect(await page.locator(PALETTE).count()).toBe(0)
      expect(await page.evaluate(() => location.hash)).toBe(`#/c/${trip.id}`)
      const view = await page.evaluate((selector) => {
        const scroller = document.querySelector('.message-scroller')!
        const box = scroller.getBoundingClientRect()
        const row = document.querySelector(selector)!.getBoundingClientRect()
        return {
          inView: row.top >= box.top && row.bottom <= box.bottom,
          atBottom: scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 8,
          rows: document.querySelectorAll('[data-testid="message"]').length,
        }
      }, found)
      expect(view).toMatchObject({ inView: true, atBottom: false })
      // Only the rows near the viewport are drawn (the list is windowed).
      expect(view.rows).toBeLessThan(60)
      const shot = await page.screenshot({ path: artifact('search-opened.png') })
      expect(await inkShare(page, shot), 'share of the page screenshot that is text or borders').toBeGreaterThan(0.01)
      // The mark goes once the flash is over.
      await page.waitForSelector(`${found}:not([data-found])`, { timeout: UI_TIMEOUT })
    })
  })

  it('opens from its button, says when nothing matches, keeps focus and Tab inside, and closes with Esc', async () => {
    llm = await startFakeLLM({ delay: '0ms' })
    const s = await start({ env: fakeModelEnv(llm.url) })
    await conversation(s, 'Only chat', ['hello there'])
    await withBrowser(async (page) => {
      await page.goto(pageURL(s, '#/'))
      await page.click('[data-testid="search-open"]', { timeout: UI_TIMEOUT })
      await page.waitForSelector(`${PALETTE} [data-testid="search-input"]:focus`, { timeout: UI_TIMEOUT })
      await page.keyboard.type('zebra crossing')
      await page.waitForFunction(
        (palette) => document.querySelector(palette)?.getAttribute('data-state') === 'ready',
        PALETTE,
        { timeout: UI_TIMEOUT },
      )
      expect(await page.locator('[data-testid="search-status"]').textContent()).toBe('No messages match.')
      // A click on a part that takes no focus leaves the keys working (focus stays in the palette).
      await page.click(`${PALETTE} .search-hint`)
      await page.waitForFunction((palette) => document.querySelector(palette)?.contains(document.activeElement) === true, PALETTE, {
        timeout: UI_TIMEOUT,
      })
      // Tab stays inside it.
      await page.keyboard.press('Tab')
      await page.keyboard.press('Tab')
      expect(await page.evaluate((palette) => document.querySelector(palette)?.contains(document.activeElement), PALETTE)).toBe(true)
      await page.keyboard.press('Escape')
      await page.waitForSelector(PALETTE, { state: 'detached', timeout: UI_TIMEOUT })
    })
  })
})
