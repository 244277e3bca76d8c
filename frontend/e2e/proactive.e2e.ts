// End to end proactive messages (docs/proactive.md): reminders set through
// the API and the Reminders panel, delivered by the real server binary to
// the built UI in headless Chromium, the sidebar's unread marks and the
// header's autonomy pill. Needs `npm run build`, the server binary
// (WISP_BIN) and the fake LLM (WISP_FAKELLM_BIN): the chat view only shows
// when a model is set up.

import { existsSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, pageURL, serverPerTest, type RunningServer } from './server'

const ROW = '[data-testid="conversation-item"]'
const rowOf = (id: string) => `${ROW}[data-conversation-id="${id}"]`
const REMINDER_BUBBLE = '[data-testid="message"][data-role="assistant"][data-source="reminder"]'
const reminderRow = (id: string) => `[data-testid="reminder-row"][data-reminder-id="${id}"]`

interface Conversation {
  id: string
  title: string
  unread: boolean
}

interface Reminder {
  id: string
  conversationId: string | null
  text: string
  status: string
}

/** A JSON call to the server under test, with its API token. */
async function call<T>(s: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const init: RequestInit = { method, headers: { Accept: 'application/json', ...s.auth } }
  if (body !== undefined) {
    init.headers = { ...init.headers, 'Content-Type': 'application/json' }
    init.body = JSON.stringify(body)
  }
  const res = await fetch(`${s.url}${path}`, init)
  return { status: res.status, body: (await res.json()) as T }
}

async function createConversation(s: RunningServer, title: string): Promise<Conversation> {
  const res = await call<{ conversation: Conversation }>(s, 'POST', '/api/conversations', { title })
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300)
  return res.body.conversation
}

async function createReminder(s: RunningServer, conversationId: string, text: string, inMs: number): Promise<Reminder> {
  const at = new Date(Date.now() + inMs).toISOString()
  const res = await call<Reminder>(s, 'POST', '/api/reminders', { conversationId, text, at })
  expect(res.status, JSON.stringify(res.body)).toBe(201)
  return res.body
}

async function listReminders(s: RunningServer): Promise<Reminder[]> {
  return (await call<{ reminders: Reminder[] }>(s, 'GET', '/api/reminders')).body.reminders
}

async function serverUnread(s: RunningServer, id: string): Promise<boolean | undefined> {
  const { body } = await call<{ conversations: Conversation[] }>(s, 'GET', '/api/conversations')
  return body.conversations.find((c) => c.id === id)?.unread
}

/** Polls the server until check passes (marks are cleared asynchronously, after the socket's frame). */
async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

async function rowIds(page: Page): Promise<(string | null)[]> {
  return page.locator(ROW).evaluateAll((els) => els.map((el) => el.getAttribute('data-conversation-id')))
}

/** Shows the side column's drawer in a narrow window (the header's Activity button). */
async function openDrawer(page: Page): Promise<void> {
  if (await page.locator('[data-testid="reminders-panel"]').isVisible()) return
  await page.click('[data-testid="activity-toggle"]')
  await page.locator('[data-testid="reminders-panel"]').waitFor({ state: 'visible', timeout: UI_TIMEOUT })
}

describe('proactive messages', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  async function startWithModel(): Promise<RunningServer> {
    const fake = await startFakeLLM()
    llm = fake
    return start({ env: { ...CLEAN_ENV, ...fakeModelEnv(fake.url) } })
  }

  it('marks the conversation a reminder fired in unread, moves it up, and clears the mark on open', async () => {
    const s = await startWithModel()
    // B first, so A is the newest and on top.
    const b = await createConversation(s, 'Beta plans')
    const a = await createConversation(s, 'Alpha notes')
    const text = 'stretch your legs'

    await withBrowser(async (page) => {
      await page.goto(pageURL(s, `#/c/${a.id}`))
      await waitForComposer(page)
      await page.locator(`${rowOf(a.id)}[data-active="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await rowIds(page)).toEqual([a.id, b.id])
      expect(await page.locator(`${ROW}[data-unread="true"]`).count()).toBe(0)

      await createReminder(s, b.id, text, 3_000)
      await page.locator(`${rowOf(b.id)}[data-unread="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await rowIds(page)).toEqual([b.id, a.id])
      const unreadRow = page.locator(rowOf(b.id))
      expect(await unreadRow.locator('[data-testid="unread-dot"]').getAttribute('aria-label')).toBe('unread')
      expect(await page.locator(rowOf(a.id)).getAttribute('data-unread')).toBe('false')
      // A, still open, got nothing.
      expect(await page.locator('[data-testid="message"]').count()).toBe(0)
      expect(await serverUnread(s, b.id)).toBe(true)
      await page.screenshot({ path: artifact('proactive-unread.png') })

      await unreadRow.locator('.conversation-open').click()
      // The mark goes at once, before the messages load.
      expect(await page.locator(rowOf(b.id)).getAttribute('data-unread')).toBe('false')
      const bubble = page.locator(REMINDER_BUBBLE)
      await bubble.waitFor({ timeout: UI_TIMEOUT })
      expect(await bubble.locator('[data-testid="message-source"]').textContent()).toBe('Reminder')
      expect(await bubble.locator('[data-testid="message-text"]').textContent()).toContain(text)
      // The server cleared its copy too (from the active-conversation frame).
      await eventually(async () => (await serverUnread(s, b.id)) === false, 'the server to clear the mark')
      await page.screenshot({ path: artifact('proactive-reminder.png') })

      // A reload shows the label from the saved message, and no mark.
      await page.reload()
      await page.locator(REMINDER_BUBBLE).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator(`${REMINDER_BUBBLE} [data-testid="message-source"]`).textContent()).toBe('Reminder')
      expect(await page.locator(`${ROW}[data-unread="true"]`).count()).toBe(0)
      expect(await rowIds(page)).toEqual([b.id, a.id])

      // The narrow window: the list, the labelled message and the drawer's reminders fit.
      await page.setViewportSize({ width: 720, height: 480 })
      await openDrawer(page)
      await page.locator(`[data-testid="reminder-row"][data-status="delivered"]`).waitFor({ timeout: UI_TIMEOUT })
      await page.screenshot({ path: artifact('proactive-720x480.png') })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('shows a reminder of the open conversation at once, follows it in the panel, and adds and deletes reminders', async () => {
    const s = await startWithModel()
    const c = await createConversation(s, 'Daily things')
    const text = 'drink some water'

    await withBrowser(async (page) => {
      await page.goto(pageURL(s, `#/c/${c.id}`))
      await waitForComposer(page)
      const panel = page.locator('[data-testid="reminders-panel"]')
      await panel.getByText('No reminders').waitFor({ timeout: UI_TIMEOUT })
      // Marks the page, to prove nothing reloads it.
      await page.evaluate(() => Object.assign(window, { __sameDocument: true }))

      const reminder = await createReminder(s, c.id, text, 4_000)
      const row = page.locator(reminderRow(reminder.id))
      // Checked in one look at the page: the row is pending with its text and how soon it is due
      // (separate reads could straddle the moment it falls due).
      await page.waitForFunction(
        ([selector, want]) => {
          const el = document.querySelector(selector)
          const content = el?.textContent ?? ''
          return el?.getAttribute('data-status') === 'pending' && content.includes(want) && /in \d+ s/.test(content)
        },
        [reminderRow(reminder.id), text] as const,
        { timeout: UI_TIMEOUT },
      )
      await page.screenshot({ path: artifact('proactive-pending.png') })

      const bubble = page.locator(REMINDER_BUBBLE)
      await bubble.waitFor({ timeout: UI_TIMEOUT })
      expect(await bubble.locator('[data-testid="message-text"]').textContent()).toContain(text)
      expect(await bubble.locator('[data-testid="message-source"]').textContent()).toBe('Reminder')
      expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true)
      await page.locator(`${reminderRow(reminder.id)}[data-status="delivered"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="reminder-delivered"]').textContent()).toBe('delivered')
      // Open, so never unread.
      expect(await page.locator(rowOf(c.id)).getAttribute('data-unread')).toBe('false')
      expect(await page.locator(REMINDER_BUBBLE).count()).toBe(1)

      // The add form: a reminder in 30 minutes, in this conversation.
      await page.fill('[data-testid="reminder-input"]', 'call the plumber')
      await page.fill('[data-testid="reminder-minutes"]', '30')
      await page.click('[data-testid="reminder-add"]')
      const added = page.locator('[data-testid="reminder-row"][data-status="pending"]', { hasText: 'call the plumber' })
      await added.waitFor({ timeout: UI_TIMEOUT })
      expect(await added.textContent()).toContain('in 30 min')
      expect(await page.inputValue('[data-testid="reminder-input"]')).toBe('')
      const onServer = (await listReminders(s)).find((r) => r.text === 'call the plumber')
      expect(onServer).toMatchObject({ conversationId: c.id, status: 'pending' })
      // Pending first, then delivered.
      const statuses = await page
        .locator('[data-testid="reminder-row"]')
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-status')))
      expect(statuses).toEqual(['pending', 'delivered'])

      // A refusal of the server shows inline: a time in the past.
      await page.fill('[data-testid="reminder-input"]', 'too late')
      await page.selectOption('[data-testid="reminder-mode"]', 'at')
      await page.fill('[data-testid="reminder-at"]', '2020-01-01T09:00')
      await page.click('[data-testid="reminder-add"]')
      const error = page.locator('[data-testid="reminder-error"]')
      await error.waitFor({ timeout: UI_TIMEOUT })
      expect((await error.textContent())?.trim()).not.toBe('')
      expect(await page.locator('[data-testid="reminder-row"]', { hasText: 'too late' }).count()).toBe(0)
      await page.screenshot({ path: artifact('proactive-panel.png') })

      // Deleting the pending one removes it here and on the server.
      await page.getByRole('button', { name: 'Delete reminder call the plumber' }).click()
      await added.waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      expect((await listReminders(s)).some((r) => r.id === onServer?.id)).toBe(false)
      expect(await page.locator('[data-testid="reminder-row"]').count()).toBe(1)

      await page.setViewportSize({ width: 720, height: 480 })
      await openDrawer(page)
      const box = await panel.boundingBox()
      expect(box, 'reminders panel').not.toBeNull()
      expect(box!.x >= 0 && box!.x + box!.width <= 720 && box!.y + box!.height <= 480, JSON.stringify(box)).toBe(true)
      await page.screenshot({ path: artifact('proactive-panel-720x480.png') })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('lists the conversation a reminder without one started, unread', async () => {
    const s = await startWithModel()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      expect(await page.locator(ROW).count()).toBe(0)

      // No conversation at all: Wisp starts one for the reminder.
      const at = new Date(Date.now() + 3_000).toISOString()
      const res = await call<Reminder>(s, 'POST', '/api/reminders', { text: 'water the plants', at })
      expect(res.status, JSON.stringify(res.body)).toBe(201)
      await page.locator(`${ROW}[data-unread="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator(ROW).count()).toBe(1)
      // The new chat on screen stays empty; the message is in the new conversation.
      expect(await page.locator('[data-testid="message"]').count()).toBe(0)
      await page.locator(`${ROW} .conversation-open`).click()
      await page.locator(REMINDER_BUBBLE, { hasText: 'water the plants' }).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator(ROW).first().getAttribute('data-unread')).toBe('false')
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('shows "Autonomy on" in the header while the autonomy loop is on', async () => {
    const s = await startWithModel()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      const pill = page.locator('[data-testid="autonomy-indicator"]')
      expect(await pill.count()).toBe(0)

      const on = await call<{ enabled: boolean }>(s, 'POST', '/api/agent/autonomy', { enabled: true })
      expect(on.body.enabled).toBe(true)
      await pill.waitFor({ timeout: UI_TIMEOUT })
      expect(await pill.textContent()).toBe('Autonomy on')
      await page.screenshot({ path: artifact('proactive-autonomy.png'), clip: { x: 0, y: 0, width: 1280, height: 60 } })

      // The settings say how the loop runs now, and that the interval is clamped.
      await page.click('[data-testid="settings-toggle"]')
      const section = page.locator('[data-testid="settings-section-autonomy"]')
      const status = section.locator('[data-testid="autonomy-status"]')
      await status.waitFor({ timeout: UI_TIMEOUT })
      expect(await status.textContent()).toMatch(/^On: checks every 30 s, \d+ of 4 messages in the last hour/)
      expect(await section.textContent()).toContain('Clamped to 5 s – 10 min.')
      expect(await page.isChecked('[data-testid="setting-autonomy.enabled"]')).toBe(true)
      await section.scrollIntoViewIfNeeded()
      await section.screenshot({ path: artifact('proactive-autonomy-settings.png') })
      await page.click('[data-testid="settings-close"]')
      await page.setViewportSize({ width: 720, height: 480 })
      expect(await pill.isVisible()).toBe(true)
      // Only the spark there, so the agent's name still fits next to the buttons.
      expect(await page.$eval('[data-testid="agent-name"]', (el) => el.scrollWidth <= el.clientWidth)).toBe(true)
      const box = await pill.boundingBox()
      expect(box !== null && box.x + box.width <= 720, JSON.stringify(box)).toBe(true)
      await page.screenshot({ path: artifact('proactive-autonomy-720x480.png') })

      await call(s, 'POST', '/api/agent/autonomy', { enabled: false })
      await pill.waitFor({ state: 'detached', timeout: UI_TIMEOUT })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
