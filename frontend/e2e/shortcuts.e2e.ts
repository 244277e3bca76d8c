// End to end keyboard shortcuts, links in replies and browser notifications
// (docs/desktop.md): the real server answering with the fake LLM, the built
// UI, headless Chromium. Needs `npm run build`, the server binary (WISP_BIN)
// and the fake LLM (WISP_FAKELLM_BIN).
//
// Notifications: Chromium's own are not clickable from a test, so an init
// script stands in for window.Notification (it records each one, and its
// permission starts as "default" like a fresh profile's) and for whether the
// page is in front (document.hidden, document.hasFocus), which the test sets.

import { existsSync } from 'node:fs'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type FakeLLMOptions, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, pageURL, serverPerTest, type RunningServer } from './server'

const ASSISTANT = '[data-testid="message"][data-role="assistant"]'
const ROW = '[data-testid="conversation-item"]'
const OVERLAY = '[data-testid="shortcuts-overlay"]'
const rowOf = (id: string) => `${ROW}[data-conversation-id="${id}"]`

interface Conversation {
  id: string
  title: string
}

/** A JSON call to the server under test, with its API token. */
async function call<T>(s: RunningServer, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json', ...s.auth }
  if (body !== undefined) headers['Content-Type'] = 'application/json'
  const res = await fetch(`${s.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
  const json = (await res.json()) as T
  expect(res.status, JSON.stringify(json)).toBeLessThan(300)
  return json
}

async function createConversation(s: RunningServer, title: string): Promise<Conversation> {
  return (await call<{ conversation: Conversation }>(s, 'POST', '/api/conversations', { title })).conversation
}

async function remind(s: RunningServer, conversationId: string, text: string): Promise<void> {
  const at = new Date(Date.now() + 1_000).toISOString()
  await call(s, 'POST', '/api/reminders', { conversationId, text, at })
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

async function lastReplyStatus(page: Page, status: string): Promise<void> {
  await page.waitForFunction(
    ([selector, want]) => {
      const bubbles = document.querySelectorAll(selector)
      return bubbles[bubbles.length - 1]?.getAttribute('data-status') === want
    },
    [ASSISTANT, status] as const,
    { timeout: UI_TIMEOUT },
  )
}

/** Waits until the streaming reply shows at least `words` words. */
async function partialReply(page: Page, words: number): Promise<void> {
  await page.waitForFunction(
    ([selector, n]) => {
      const bubbles = document.querySelectorAll(selector)
      const last = bubbles[bubbles.length - 1]
      const text = last?.querySelector('[data-testid="message-text"]')?.textContent?.trim() ?? ''
      return last?.getAttribute('data-status') === 'streaming' && text !== '' && text.split(/\s+/).length >= n
    },
    [ASSISTANT, words] as const,
    { timeout: UI_TIMEOUT },
  )
}

/** Takes the focus out of the composer (which has it from the start), so `?` is not typed. */
async function blur(page: Page): Promise<void> {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
}

/** A small web server a link in a reply points at: it records the headers of the requests for its page. */
async function startLanding(): Promise<{ url: string; requests: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const requests: IncomingHttpHeaders[] = []
  const server: Server = createServer((req, res) => {
    if (req.url !== '/landing') {
      res.writeHead(404).end() // the tab's /favicon.ico
      return
    }
    requests.push(req.headers)
    res.writeHead(200, { 'Content-Type': 'text/html' })
    res.end('<!doctype html><title>Landing</title><p>landed</p>')
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  const addr = server.address()
  if (addr === null || typeof addr === 'string') throw new Error('no port')
  return {
    url: `http://127.0.0.1:${addr.port}/landing`,
    requests,
    close: () => new Promise<void>((done) => server.close(() => done())),
  }
}

interface RecordedNotice {
  title: string
  body: string
  tag: string
}

/**
 * Runs in the page before its scripts: a Notification that records what is
 * shown (window.__notices, its instances in __noticeObjects), counts the
 * permission requests and whether a click started each (__permissionAsks),
 * and a page that is away while window.__away is true.
 */
function stubNotifications(): void {
  type Asked = { activated: boolean }
  const w = window as unknown as {
    __notices: RecordedNotice[]
    __noticeObjects: { onclick: ((ev: Event) => void) | null }[]
    __permissionAsks: Asked[]
    __away: boolean
  }
  w.__notices = []
  w.__noticeObjects = []
  w.__permissionAsks = []
  w.__away = false
  let permission: NotificationPermission = 'default'
  class RecordingNotification {
    static get permission(): NotificationPermission {
      return permission
    }
    static async requestPermission(): Promise<NotificationPermission> {
      w.__permissionAsks.push({ activated: navigator.userActivation.isActive })
      permission = 'granted'
      return permission
    }
    onclick: ((ev: Event) => void) | null = null
    constructor(title: string, options?: NotificationOptions) {
      w.__notices.push({ title, body: options?.body ?? '', tag: options?.tag ?? '' })
      w.__noticeObjects.push(this)
    }
    close(): void {}
  }
  Object.defineProperty(window, 'Notification', { value: RecordingNotification, configurable: true, writable: true })
  Object.defineProperty(document, 'hidden', { get: () => w.__away, configurable: true })
  const hasFocus = document.hasFocus.bind(document)
  document.hasFocus = () => !w.__away && hasFocus()
}

async function notices(page: Page): Promise<RecordedNotice[]> {
  return page.evaluate(() => (window as unknown as { __notices: RecordedNotice[] }).__notices)
}

async function setAway(page: Page, away: boolean): Promise<void> {
  await page.evaluate((a) => {
    ;(window as unknown as { __away: boolean }).__away = a
  }, away)
}

describe('shortcuts, links and notifications', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  async function startWithModel(opts: FakeLLMOptions = {}): Promise<RunningServer> {
    const fake = await startFakeLLM(opts)
    llm = fake
    return start({ env: { ...CLEAN_ENV, ...fakeModelEnv(fake.url) } })
  }

  it('Ctrl+N starts a new chat; ? lists every shortcut in an overlay', async () => {
    const s = await startWithModel()
    const a = await createConversation(s, 'Alpha notes')
    await withBrowser(async (page) => {
      await page.goto(pageURL(s, `#/c/${a.id}`))
      await waitForComposer(page)
      await page.locator(`${rowOf(a.id)}[data-active="true"]`).waitFor({ timeout: UI_TIMEOUT })

      // Ctrl+N from the composer, where the focus is: a new chat, no conversation open.
      await page.keyboard.press('Control+n')
      await page.waitForFunction(() => !location.hash.startsWith('#/c/'), null, { timeout: UI_TIMEOUT })
      await page.locator(`${ROW}[data-active="true"]`).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      expect(page.url().startsWith(s.url), 'still the app').toBe(true)
      // Sending there makes a second conversation.
      await page.fill('[data-testid="composer"]', 'hello from a new chat')
      await page.keyboard.press('Enter')
      await lastReplyStatus(page, 'done')
      await page.waitForFunction((row) => document.querySelectorAll(row).length === 2, ROW, { timeout: UI_TIMEOUT })
      const active = await page.locator(`${ROW}[data-active="true"]`).getAttribute('data-conversation-id')
      expect(active).not.toBe(a.id)

      // In the composer, ? is a character.
      await page.keyboard.press('Shift+Slash')
      expect(await page.inputValue('[data-testid="composer"]')).toBe('?')
      expect(await page.locator(OVERLAY).count()).toBe(0)
      await page.fill('[data-testid="composer"]', '')

      // Elsewhere it shows the overlay: every shortcut, the search palette's included.
      await blur(page)
      await page.keyboard.press('Shift+Slash')
      const overlay = page.locator(OVERLAY)
      await overlay.waitFor({ timeout: UI_TIMEOUT })
      const rows = await overlay.locator('[data-testid="shortcut"]').evaluateAll((els) =>
        els.map((el) => [el.querySelector('kbd')?.textContent ?? '', el.querySelector('dd')?.textContent ?? '']),
      )
      expect(rows).toEqual([
        ['Ctrl+N', 'New chat'],
        ['Ctrl+K', 'Search all conversations'],
        ['Ctrl+E', 'Play an emote'],
        ['Esc', 'Stop the reply being written or spoken'],
        ['?', 'Show these shortcuts (outside text fields)'],
        ['Ctrl+Space', 'Hold to speak a message (when a transcription server is set)'],
        ['Enter', 'Send the message (in the message box)'],
        ['Shift+Enter', 'New line (in the message box)'],
      ])
      const box = await overlay.boundingBox()
      expect(box, 'overlay box').not.toBeNull()
      expect(box!.width).toBeGreaterThan(300)
      expect(box!.height).toBeGreaterThan(200)
      const png = await overlay.screenshot({ path: artifact('shortcuts-overlay.png') })
      expect(await inkShare(page, png), 'share of the overlay screenshot that is text or borders').toBeGreaterThan(0.01)

      // Esc closes it and gives the focus back.
      await page.keyboard.press('Escape')
      await overlay.waitFor({ state: 'detached', timeout: UI_TIMEOUT })
    })
  })

  it('Esc stops the reply being written, but not while it closes the overlay', async () => {
    const s = await startWithModel({ delay: '200ms' })
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      // About 12 s of reply at 200 ms a word: time for the overlay to open and close before it ends.
      const text = Array.from({ length: 6 }, () => 'please echo this long message back to me one word at a time').join(' ')
      await page.fill('[data-testid="composer"]', text)
      await page.click('[data-testid="send"]')
      await partialReply(page, 3)

      // The overlay's Esc only closes the overlay.
      await blur(page)
      await page.keyboard.press('Shift+Slash')
      await page.locator(OVERLAY).waitFor({ timeout: UI_TIMEOUT })
      await page.keyboard.press('Escape')
      await page.locator(OVERLAY).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      expect(await page.locator(`${ASSISTANT}[data-status="streaming"]`).count()).toBe(1)
      expect(await page.locator('[data-testid="stop"]').isEnabled()).toBe(true)

      // The next Esc, with the focus outside the composer, stops the reply.
      await blur(page)
      await page.keyboard.press('Escape')
      await lastReplyStatus(page, 'stopped')
      const said = (await page.locator(`${ASSISTANT} [data-testid="message-text"]`).last().textContent()) ?? ''
      expect(said.length).toBeGreaterThan(0)
      expect(`You said: ${text}`.startsWith(said.trim())).toBe(true)
      expect(said.trim().length).toBeLessThan(`You said: ${text}`.length)
    })
  })

  it('opens a link in a reply in a new tab, without a referrer, and the app stays', async () => {
    const landing = await startLanding()
    try {
      const s = await startWithModel({ script: [{ text: [`Read [the landing page](${landing.url}) first.`] }] })
      await withBrowser(async (page) => {
        await page.goto(s.openURL)
        await waitForComposer(page)
        await page.fill('[data-testid="composer"]', 'where do I start?')
        await page.keyboard.press('Enter')
        await lastReplyStatus(page, 'done')
        const link = page.locator(`${ASSISTANT} a`, { hasText: 'the landing page' })
        expect(await link.getAttribute('href')).toBe(landing.url)
        expect(await link.getAttribute('target')).toBe('_blank')
        expect(await link.getAttribute('rel')).toBe('noopener noreferrer')
        const appURL = page.url()

        const [tab] = await Promise.all([page.context().waitForEvent('page', { timeout: UI_TIMEOUT }), link.click()])
        await tab.waitForURL(landing.url, { timeout: UI_TIMEOUT })
        await tab.locator('text=landed').waitFor({ timeout: UI_TIMEOUT })
        expect(landing.requests).toHaveLength(1)
        expect(landing.requests[0]?.referer, 'noreferrer').toBeUndefined()
        expect(await tab.evaluate(() => window.opener), 'noopener').toBeNull()
        // The app did not navigate away.
        expect(page.url()).toBe(appURL)
        expect(await page.locator(ASSISTANT).count()).toBe(1)
      })
    } finally {
      await landing.close()
    }
  })

  it('notifies about a proactive message while the page is away, once permitted from a click; a click opens its conversation', async () => {
    const s = await startWithModel()
    const a = await createConversation(s, 'Alpha notes')
    const b = await createConversation(s, 'Beta plans')
    await withBrowser(async (page) => {
      await page.addInitScript(stubNotifications)
      await page.goto(pageURL(s, `#/c/${a.id}`))
      await waitForComposer(page)
      await page.locator(`${rowOf(a.id)}[data-active="true"]`).waitFor({ timeout: UI_TIMEOUT })
      await page.locator('html[data-notifications="on"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT })
      const asks = () => page.evaluate(() => (window as unknown as { __permissionAsks: { activated: boolean }[] }).__permissionAsks)
      expect(await asks(), 'never asked on load').toEqual([])

      // Settings → Notifications: on by default; the browser is asked from the click.
      await page.click('[data-testid="settings-toggle"]')
      await page.locator('[data-testid="settings-section-notifications"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await page.isChecked('#setting-ui\\.notifications')).toBe(true)
      await page.click('[data-testid="notifications-permission"]')
      await page.locator('[data-testid="notifications-state"]', { hasText: 'This browser shows them' }).waitFor({ timeout: UI_TIMEOUT })
      expect(await asks()).toEqual([{ activated: true }])
      await page.click('[data-testid="settings-close"]')
      await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: UI_TIMEOUT })

      // In front: a reminder in B marks it unread, and nothing is notified.
      await remind(s, b.id, 'first, while you look')
      await page.locator(`${rowOf(b.id)}[data-unread="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await notices(page)).toEqual([])

      // Away: the next one is notified, once.
      await setAway(page, true)
      await remind(s, b.id, 'stretch your legs')
      await page.waitForFunction(() => (window as unknown as { __notices: unknown[] }).__notices.length === 1, null, {
        timeout: UI_TIMEOUT,
      })
      const [notice] = await notices(page)
      expect(notice?.title).toBe('Reminder from Wisp')
      expect(notice?.body).toContain('stretch your legs')
      expect(notice?.tag).toMatch(/^wisp-message:/)

      // Its click opens B.
      await setAway(page, false)
      await page.evaluate(() => {
        const w = window as unknown as { __noticeObjects: { onclick: ((ev: Event) => void) | null }[] }
        w.__noticeObjects[0]?.onclick?.(new Event('click'))
      })
      await page.locator(`${rowOf(b.id)}[data-active="true"]`).waitFor({ timeout: UI_TIMEOUT })
      await page.waitForFunction((id) => location.hash === `#/c/${encodeURIComponent(id)}`, b.id, { timeout: UI_TIMEOUT })
      await page.locator(`${ASSISTANT}[data-source="reminder"]`, { hasText: 'stretch your legs' }).waitFor({ timeout: UI_TIMEOUT })
      expect(await notices(page)).toHaveLength(1)

      // Turned off in Settings, nothing is notified while away.
      await page.click('[data-testid="settings-toggle"]')
      await page.locator('[data-testid="settings-section-notifications"]').waitFor({ timeout: UI_TIMEOUT })
      await page.uncheck('#setting-ui\\.notifications')
      await page.click('[data-testid="settings-save"]')
      await page.locator('html[data-notifications="off"]').waitFor({ state: 'attached', timeout: UI_TIMEOUT })
      await page.click('[data-testid="settings-close"]')
      await page.click('[data-testid="new-chat"]')
      await setAway(page, true)
      await remind(s, b.id, 'drink some water')
      await page.locator(`${rowOf(b.id)}[data-unread="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await notices(page)).toHaveLength(1)
    })
  })
})
