// End to end memory and citations (docs/memory.md): the real server binary,
// the fake LLM (echoing, or scripted), the built UI, headless Chromium.
// Settings › Memory edits the memory (saved, there after a reload; a change
// made elsewhere meanwhile is said and never overwritten); the agent's
// REMEMBER is a card whose Save puts the note in the memory; and a citation
// wisp://message/<c>/<m> in a reply opens that message of another
// conversation. Needs `npm run build`, the server binary (WISP_BIN) and the
// fake LLM (WISP_FAKELLM_BIN).

import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { spawnUntilReady } from './process'
import { freePort, pageURL, serverPerTest, type RunningServer } from './server'

const ASSISTANT = '[data-testid="message"][data-role="assistant"]'
const CARD = '[data-testid="approval-card"]'

interface Memory {
  text: string
  version: number
  maxBytes: number
}

interface Message {
  id: string
  role: string
  text: string
}

async function call<T>(s: RunningServer, method: string, path: string, body?: unknown, want = 200): Promise<T> {
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...s.auth } }
  if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' }
    init.body = JSON.stringify(body)
  }
  const res = await fetch(`${s.url}${path}`, init)
  const out = (await res.json()) as T
  expect(res.status, `${method} ${path}: ${JSON.stringify(out)}`).toBe(want)
  return out
}

/** The fake LLM on a given port (the server keeps talking to that address when the fake is replaced). */
async function fakeOnPort(port: number, script?: unknown[]): Promise<RunningFakeLLM> {
  const args = ['--addr', `127.0.0.1:${port}`, '--delay', '0ms']
  let dir: string | null = null
  if (script !== undefined) {
    dir = mkdtempSync(join(tmpdir(), 'wisp-fakellm-'))
    writeFileSync(join(dir, 'turns.json'), JSON.stringify(script))
    args.push('--script', join(dir, 'turns.json'))
  }
  return spawnUntilReady(fakeLLMBinary(), args, {
    name: 'fake LLM',
    env: {},
    ready: /fake LLM listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
    cleanup: () => {
      if (dir !== null) rmSync(dir, { recursive: true, force: true })
    },
  })
}

async function send(page: Page, text: string): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
  await page.fill('[data-testid="composer"]', text)
  await page.click('[data-testid="send"]')
}

async function openMemorySettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings"]').waitFor({ timeout: UI_TIMEOUT })
  await page.locator('[data-testid="memory-text"]').waitFor({ timeout: UI_TIMEOUT })
}

/** Waits until the last assistant reply is done and its text matches. */
async function waitForReply(page: Page, pattern: RegExp): Promise<void> {
  await page.waitForFunction(
    ([selector, src, flags]) => {
      const bubbles = document.querySelectorAll(selector)
      const last = bubbles[bubbles.length - 1]
      const text = last?.querySelector('[data-testid="message-text"]')?.textContent ?? ''
      return last?.getAttribute('data-status') === 'done' && new RegExp(src, flags).test(text)
    },
    [ASSISTANT, pattern.source, pattern.flags] as const,
    { timeout: UI_TIMEOUT },
  )
}

describe('memory', () => {
  const start = serverPerTest()
  const fakes: RunningFakeLLM[] = []

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })
  afterEach(async () => {
    for (const f of fakes.splice(0)) await f.stop()
  })

  it('edits the memory in Settings: saved, there after a reload; a change made elsewhere is said, never overwritten', async () => {
    const llm = await startFakeLLM({ delay: '0ms' })
    fakes.push(llm)
    const s = await start({ env: fakeModelEnv(llm.url) })
    const mine = '# About me\n- I live in Lyon\n- I prefer tea\n'

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await openMemorySettings(page)
      const text = page.locator('[data-testid="memory-text"]')
      expect(await text.inputValue()).toBe('')
      await text.fill(mine)
      await page.locator('[data-testid="memory-status"]', { hasText: 'Unsaved changes' }).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator('[data-testid="memory-bytes"]').textContent()).toMatch(new RegExp(`^${mine.length} of [\\d,.\\s]+ bytes$`))
      await page.click('[data-testid="memory-save-text"]')
      await page.locator('[data-testid="memory-status"]', { hasText: 'Saved.' }).waitFor({ timeout: UI_TIMEOUT })
      const saved = await call<Memory>(s, 'GET', '/api/memory')
      expect(saved.text).toBe(mine)
      // The history has the version, made by the user.
      await page.locator('[data-testid="memory-version"][data-source="user"]').first().waitFor({ timeout: UI_TIMEOUT })

      const section = page.locator('[data-testid="memory-section"]')
      await section.scrollIntoViewIfNeeded()
      const png = await section.screenshot({ path: artifact('memory-settings.png') })
      expect(await inkShare(page, png), 'share of the memory section that is text or borders').toBeGreaterThan(0.01)

      // After a reload the editor shows it.
      await page.reload()
      await openMemorySettings(page)
      await page.waitForFunction(
        (want) => (document.querySelector('[data-testid="memory-text"]') as HTMLTextAreaElement | null)?.value === want,
        mine,
        { timeout: UI_TIMEOUT },
      )

      // An edit here while the memory changes elsewhere: said at once, and the save is refused.
      await text.fill(`${mine}- unsaved here\n`)
      await call<Memory>(s, 'PUT', '/api/memory', { text: 'changed elsewhere\n', baseVersion: saved.version })
      await page.locator('[data-testid="memory-newer"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await text.inputValue()).toBe(`${mine}- unsaved here\n`)
      await page.click('[data-testid="memory-save-text"]')
      await page.locator('[data-testid="memory-conflict"]').waitFor({ timeout: UI_TIMEOUT })
      expect((await call<Memory>(s, 'GET', '/api/memory')).text).toBe('changed elsewhere\n')
      // Reloading shows the memory as it is now.
      await page.click('[data-testid="memory-conflict"] [data-testid="memory-reload"]')
      await page.waitForFunction(
        () => (document.querySelector('[data-testid="memory-text"]') as HTMLTextAreaElement | null)?.value === 'changed elsewhere\n',
        undefined,
        { timeout: UI_TIMEOUT },
      )
    })
  })

  it('shows the agent’s REMEMBER as a card whose Save puts the note in the memory', async () => {
    const note = 'The user prefers green tea, no sugar.'
    const llm = await startFakeLLM({
      delay: '0ms',
      script: [{ toolCalls: [{ id: 'call_1', name: 'REMEMBER', arguments: { text: note } }] }, { text: ['Noted: green tea.'] }],
    })
    fakes.push(llm)
    const s = await start({ env: fakeModelEnv(llm.url) })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await send(page, 'remember that I like green tea without sugar')
      const card = page.locator(`${CARD}[data-kind="memory"][data-status="pending"]`)
      await card.waitFor({ timeout: UI_TIMEOUT })
      expect(await card.locator('[data-testid="memory-proposal"]').textContent()).toBe(note)
      await card.scrollIntoViewIfNeeded()
      const png = await card.screenshot({ path: artifact('memory-card.png') })
      expect(await inkShare(page, png), 'share of the card that is text or borders').toBeGreaterThan(0.01)

      await card.locator('[data-testid="memory-save"]').click()
      await page.locator(`${CARD}[data-kind="memory"][data-status="approved"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator(`${CARD}[data-kind="memory"] [data-testid="approval-outcome"]`).textContent()).toBe('Saved to the memory.')
      await waitForReply(page, /Noted: green tea\./)
      const memory = await call<Memory>(s, 'GET', '/api/memory')
      expect(memory.text).toContain(note)

      // Settings › Memory shows it, made by Wisp.
      await openMemorySettings(page)
      expect(await page.locator('[data-testid="memory-text"]').inputValue()).toContain(note)
      await page.locator('[data-testid="memory-version"][data-source="agent"]').first().waitFor({ timeout: UI_TIMEOUT })
    })
  })

  it('opens the message a citation in a reply names, in its conversation', async () => {
    // The fake echoes while conversation A is made; then one that answers with a citation of A's message.
    const port = await freePort()
    const echo = await fakeOnPort(port)
    fakes.push(echo)
    const s = await start({ env: fakeModelEnv(echo.url) })
    const { conversation: a } = await call<{ conversation: { id: string } }>(s, 'POST', '/api/conversations', { title: 'Island trip' })
    const filler = Array.from({ length: 12 }, (_, i) => `filler note ${i} about nothing much`)
    for (const text of ['Book the lighthouse tour on Ærø for Saturday', ...filler]) {
      await call(s, 'POST', `/api/conversations/${a.id}/messages`, { text })
    }
    const { messages } = await call<{ messages: Message[] }>(s, 'GET', `/api/conversations/${a.id}/messages`)
    const target = messages.find((m) => m.role === 'user' && m.text.includes('Ærø'))
    expect(target).toBeDefined()
    await fakes.splice(0)[0]!.stop()
    const citation = `[Island trip, 2026-11-28](wisp://message/${a.id}/${target!.id})`
    const reply = `You booked it earlier: ${citation}. Not a link: [evil](wisp://settings) [bad](javascript:alert(1)).`
    fakes.push(await fakeOnPort(port, [{ text: [reply] }]))

    await withBrowser(async (page) => {
      await page.goto(pageURL(s, '#/'))
      await send(page, 'when is the lighthouse tour?')
      await waitForReply(page, /You booked it earlier/)
      const link = page.locator(`${ASSISTANT} [data-testid="citation"]`)
      expect(await link.count()).toBe(1)
      expect(await link.textContent()).toBe('Island trip, 2026-11-28')
      expect(await link.getAttribute('data-conversation-id')).toBe(a.id)
      expect(await link.getAttribute('data-message-id')).toBe(target!.id)
      // Only the citation is a link: the other wisp: and javascript: targets stay text.
      const last = page.locator(ASSISTANT).last().locator('[data-testid="message-text"]')
      expect(await last.locator('a').count()).toBe(1)
      expect(await last.textContent()).toContain('[evil](wisp://settings)')
      expect(await last.textContent()).toContain('[bad](javascript:alert(1))')
      const bubble = page.locator(ASSISTANT).last()
      const replyPng = await bubble.screenshot({ path: artifact('memory-citation.png') })
      expect(await inkShare(page, replyPng), 'share of the reply that is text or borders').toBeGreaterThan(0.01)

      // The keyboard follows it too: focus and Enter.
      await link.focus()
      await page.keyboard.press('Enter')
      const found = `[data-testid="message"][data-message-id="${target!.id}"]`
      await page.waitForSelector(`${found}[data-found]`, { timeout: UI_TIMEOUT })
      expect(await page.evaluate(() => location.hash)).toBe(`#/c/${a.id}`)
      const inView = await page.evaluate((selector) => {
        const scroller = document.querySelector('.message-scroller')!.getBoundingClientRect()
        const row = document.querySelector(selector)!.getBoundingClientRect()
        return row.top >= scroller.top && row.bottom <= scroller.bottom
      }, found)
      expect(inView).toBe(true)
      const shot = await page.screenshot({ path: artifact('memory-citation-opened.png') })
      expect(await inkShare(page, shot), 'share of the page that is text or borders').toBeGreaterThan(0.01)
    })
  })
})
