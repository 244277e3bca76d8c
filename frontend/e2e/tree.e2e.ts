// The conversation as a tree, end to end: the real server binary answering
// with the fake LLM (it echoes "You said: <text>"), the built UI, headless
// Chromium. A question edited in place becomes a new branch with its reply,
// Regenerate asks for another answer beside the first, ‹ › walk the versions
// (with the keyboard too), and a reload keeps the branch shown.

import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, freshStateDir, serverPerTest, type RunningServer } from './server'

const BUBBLE = '[data-testid="message"]'
const USER = `${BUBBLE}[data-role="user"]`
const ASSISTANT = `${BUBBLE}[data-role="assistant"]`
const PENDING_CARD = '[data-testid="approval-card"][data-status="pending"]'

interface Shown {
  role: string | null
  status: string | null
  text: string
  /** The bubble's ‹ n / m ›, '' without one. */
  position: string
}

async function shown(page: Page): Promise<Shown[]> {
  return page.locator(BUBBLE).evaluateAll((els) =>
    els.map((el) => ({
      role: el.getAttribute('data-role'),
      status: el.getAttribute('data-status'),
      text: el.querySelector('[data-testid="message-text"]')?.textContent ?? '',
      position: el.querySelector('[data-testid="branch-position"]')?.textContent ?? '',
    })),
  )
}

/** Waits until the page shows exactly these bubbles, every one done. */
async function waitForShown(page: Page, want: Omit<Shown, 'status' | 'role'>[]): Promise<void> {
  await page
    .waitForFunction(
      ([selector, expected]) => {
        const els = [...document.querySelectorAll(selector)]
        return (
          els.length === expected.length &&
          els.every((el, i) => {
            const text = el.querySelector('[data-testid="message-text"]')?.textContent ?? ''
            const position = el.querySelector('[data-testid="branch-position"]')?.textContent ?? ''
            return el.getAttribute('data-status') === 'done' && text === expected[i]!.text && position === expected[i]!.position
          })
        )
      },
      [BUBBLE, want] as const,
      { timeout: UI_TIMEOUT },
    )
    .catch(async (err: unknown) => {
      throw new Error(`waiting for ${JSON.stringify(want)}, the page shows ${JSON.stringify(await shown(page))}: ${String(err)}`)
    })
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

/** The id of the conversation the page shows, from its URL (#/c/<id>). */
async function openConversation(page: Page): Promise<string> {
  const hash = await page.evaluate(() => location.hash)
  const id = /^#\/c\/(.+)$/.exec(hash)?.[1]
  if (id === undefined) throw new Error(`no conversation in ${hash}`)
  return decodeURIComponent(id)
}

/** Calls the API as another window would, and reads the answer whole (a reply stream to its end). */
async function api(s: RunningServer, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  const init: RequestInit = { method, headers: { ...s.auth, 'Content-Type': 'application/json' } }
  if (body !== undefined) init.body = JSON.stringify(body)
  const res = await fetch(`${s.url}${path}`, init)
  return { status: res.status, text: await res.text() }
}

const focusedTestId = (page: Page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? null)

describe('conversations as trees', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  let stateDir: string | null = null

  afterEach(async () => {
    await llm?.stop()
    llm = null
    if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true })
    stateDir = null
  })

  it('edits a question into a new branch, regenerates, walks the versions and keeps the branch after a reload', async () => {
    const fake = await startFakeLLM({ delay: '10ms' })
    llm = fake
    const s = await start({ env: fakeModelEnv(fake.url) })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', 'first question')
      await page.click('[data-testid="send"]')
      await waitForShown(page, [
        { text: 'first question', position: '' },
        { text: 'You said: first question', position: '' },
      ])

      // The pencil edits in place: Escape cancels and gives the focus back to it.
      await page.click(`${USER} [data-testid="edit-message"]`)
      const editor = page.locator('[data-testid="message-editor-text"]')
      expect(await editor.inputValue()).toBe('first question')
      await page.keyboard.press('Escape')
      await page.waitForSelector('[data-testid="message-editor"]', { state: 'detached', timeout: UI_TIMEOUT })
      expect(await focusedTestId(page)).toBe('edit-message')

      // Enter (from the keyboard, on the focused pencil) opens it again; Enter in it sends a new branch.
      await page.keyboard.press('Enter')
      await editor.waitFor({ timeout: UI_TIMEOUT })
      await editor.fill('second question')
      const editing = await page.locator(USER).screenshot({ path: artifact('tree-edit.png') })
      expect(await inkShare(page, editing)).toBeGreaterThan(0.01)
      await page.keyboard.press('Enter')
      await waitForShown(page, [
        { text: 'second question', position: '2 / 2' },
        { text: 'You said: second question', position: '' },
      ])

      // Regenerate: another answer beside the one just given (the third answer in all).
      await page.click(`${ASSISTANT} [data-testid="regenerate"]`)
      await waitForShown(page, [
        { text: 'second question', position: '2 / 2' },
        { text: 'You said: second question', position: '2 / 2' },
      ])
      const view = page.locator('section.chat-view')
      const png = await view.screenshot({ path: artifact('tree.png') })
      expect(await inkShare(page, png)).toBeGreaterThan(0.005)
      expect(await view.locator('[data-testid="branch-position"]').allTextContents()).toEqual(['2 / 2', '2 / 2'])

      // ‹ of the reply shows the earlier answer; ‹ of the question the first branch, at once.
      const streams: string[] = []
      page.on('request', (req) => streams.push(`${req.method()} ${new URL(req.url()).pathname}`))
      await page.click(`${ASSISTANT} [data-testid="branch-prev"]`)
      await waitForShown(page, [
        { text: 'second question', position: '2 / 2' },
        { text: 'You said: second question', position: '1 / 2' },
      ])
      await page.click(`${USER} [data-testid="branch-prev"]`)
      await waitForShown(page, [
        { text: 'first question', position: '1 / 2' },
        { text: 'You said: first question', position: '' },
      ])
      // Each switch was one PUT, answered with the page: no reload of the app or the list.
      expect(streams.filter((r) => r.startsWith('PUT '))).toHaveLength(2)
      expect(streams.filter((r) => r.startsWith('GET ') && r.endsWith('/messages'))).toHaveLength(0)
      // ‹ is disabled at the first version: the focus went to ›. The keyboard walks back and forth.
      expect(await focusedTestId(page)).toBe('branch-next')
      await page.keyboard.press('Enter')
      // (A branch is shown down to its newest message: the regenerated answer.)
      await waitForShown(page, [
        { text: 'second question', position: '2 / 2' },
        { text: 'You said: second question', position: '2 / 2' },
      ])
      expect(await focusedTestId(page)).toBe('branch-prev')
      await page.keyboard.press('Enter')
      await waitForShown(page, [
        { text: 'first question', position: '1 / 2' },
        { text: 'You said: first question', position: '' },
      ])

      // A reload shows the branch shown last.
      await page.reload()
      await waitForShown(page, [
        { text: 'first question', position: '1 / 2' },
        { text: 'You said: first question', position: '' },
      ])
      await page.click(`${USER} [data-testid="branch-next"]`)
      await waitForShown(page, [
        { text: 'second question', position: '2 / 2' },
        { text: 'You said: second question', position: '2 / 2' },
      ])
    })
  })

  it('offers to show the branch a paused approval waits on, marks the conversation, and answers it there', async () => {
    const command = "printf 'hi\\n'"
    llm = await startFakeLLM({
      script: [
        { toolCalls: [{ id: 'call_1', name: 'RUN_SHELL', arguments: { command, reason: 'say hi' } }] },
        { text: 'Never mind then.' },
      ],
    })
    stateDir = freshStateDir()
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ features: { shellEnabled: true } }))
    const s = await start({ stateDir, env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', 'please say hi in the shell')
      await page.click('[data-testid="send"]')
      await page.locator(PENDING_CARD).waitFor({ timeout: UI_TIMEOUT })
      const conv = await openConversation(page)
      const question = await page.locator(USER).getAttribute('data-message-id').catch(() => null)

      // Another window edits the question while the run waits: a new branch, shown everywhere.
      const list = JSON.parse((await api(s, 'GET', `/api/conversations/${conv}/messages`)).text) as { messages: { id: string; role: string }[] }
      const asked = question ?? list.messages.find((m) => m.role === 'user')?.id
      expect(asked).toBeDefined()
      const edit = await api(s, 'POST', `/api/conversations/${conv}/messages/${asked}/edit?dialect=delta`, { text: 'no, do nothing' })
      expect(edit.status, edit.text).toBe(200)
      await page.locator(USER, { hasText: 'no, do nothing' }).waitFor({ timeout: UI_TIMEOUT })
      await page.waitForFunction((sel) => [...document.querySelectorAll(sel)].every((b) => b.getAttribute('data-status') === 'done'), BUBBLE, {
        timeout: UI_TIMEOUT,
      })

      // The card is not on this branch: a notice offers to show its branch, and the conversation is marked.
      const notice = page.locator('[data-testid="approval-elsewhere"]')
      await notice.waitFor({ timeout: UI_TIMEOUT })
      expect(await notice.textContent()).toContain('An approval is waiting on another branch')
      expect(await page.locator(PENDING_CARD).count()).toBe(0)
      const item = page.locator('[data-testid="conversation-item"][data-active="true"]')
      await item.locator('[data-testid="approval-pending-mark"]').waitFor({ timeout: UI_TIMEOUT })
      await page.locator('section.chat-view').screenshot({ path: artifact('tree-approval-elsewhere.png') })

      // Show it: the first branch, its card pending under the paused reply; approving finishes it there.
      await page.click('[data-testid="approval-elsewhere-show"]')
      await page.locator(PENDING_CARD).waitFor({ timeout: UI_TIMEOUT })
      expect((await shown(page))[0]).toEqual({ role: 'user', status: 'done', text: 'please say hi in the shell', position: '1 / 2' })
      expect(await notice.count()).toBe(0)
      await page.click(`${PENDING_CARD} [data-testid="approve-once"]`)
      await page.waitForFunction(
        (sel) => {
          const last = [...document.querySelectorAll(sel)].at(-1)
          return last?.getAttribute('data-status') === 'done' && /exited 0/.test(last.textContent ?? '')
        },
        ASSISTANT,
        { timeout: UI_TIMEOUT },
      )
      expect(await item.locator('[data-testid="approval-pending-mark"]').count()).toBe(0)
    })
  })
})
