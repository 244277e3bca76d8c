// End to end tasks on a schedule (docs/tasks.md): Settings → Tasks in the
// built UI against the real server binary and the fake LLM, in headless
// Chromium. A task made from the form ("every weekday at 09:00") is listed
// with its next run; Run now starts it like a user message, its result (the
// fake model's reply) shows in the list and in its conversation; a grant of
// its own added from its row is listed and saved; Pause pauses it. Needs `npm run build`, the server binary (WISP_BIN) and the
// fake LLM (WISP_FAKELLM_BIN): the chat view only shows with a model set up.

import { existsSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, serverPerTest, type RunningServer } from './server'

const SECTION = '[data-testid="settings-section-tasks"]'
const ROW = `${SECTION} [data-testid="task-row"]`
const PROMPT = 'Say the word pineapple'
const WEEKDAYS_9 = 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0'

interface Task {
  id: string
  prompt: string
  conversationId: string
  rrule: string
  catchUp: boolean
  paused: boolean
  nextRunAt: string | null
  lastRun: { status: string; manual: boolean; result: string } | null
  grants: { kind: string; base: string }[]
}

async function listTasks(s: RunningServer): Promise<Task[]> {
  const res = await fetch(`${s.url}/api/tasks`, { headers: { Accept: 'application/json', ...s.auth } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { tasks: Task[] }).tasks
}

async function getTask(s: RunningServer, id: string): Promise<Task> {
  const res = await fetch(`${s.url}/api/tasks/${encodeURIComponent(id)}`, { headers: { Accept: 'application/json', ...s.auth } })
  expect(res.status).toBe(200)
  return ((await res.json()) as { task: Task }).task
}

async function openTasks(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings"]').waitFor({ timeout: UI_TIMEOUT })
  const section = page.locator(SECTION)
  await section.waitFor({ timeout: UI_TIMEOUT })
  await section.scrollIntoViewIfNeeded()
}

describe('tasks', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('creates a task from Settings, runs it now, shows its result, and pauses it', async () => {
    llm = await startFakeLLM()
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
      await openTasks(page)
      await page.locator(`${SECTION} [data-testid="tasks-empty"]`).waitFor({ timeout: UI_TIMEOUT })

      // The form, by its labels: every weekday at 09:00, to a new conversation, caught up when missed.
      const form = page.locator(`${SECTION} [data-testid="task-form"]`)
      await form.getByLabel('Prompt', { exact: true }).fill(PROMPT)
      await form.getByLabel('When', { exact: true }).selectOption('every')
      await form.getByLabel('Repeat every', { exact: true }).selectOption('weekdays')
      await form.getByLabel('At (HH:MM)', { exact: true }).fill('09:00')
      expect(await form.locator('[data-testid="task-every-words"]').textContent()).toBe('Runs every weekday at 09:00.')
      expect(await form.getByLabel('A new conversation, named after the prompt').isChecked()).toBe(true)
      expect(await form.getByLabel(/run it once at the next start/).isChecked()).toBe(true)
      await form.getByRole('button', { name: 'Create task' }).click()

      // Listed with its schedule and next run.
      const row = page.locator(ROW).filter({ hasText: PROMPT })
      await row.waitFor({ timeout: UI_TIMEOUT })
      await form.locator('[data-testid="task-form-status"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await form.getByLabel('Prompt', { exact: true }).inputValue()).toBe('')
      const [task] = await listTasks(s)
      expect(task, 'the task the form made').toBeDefined()
      expect(task).toMatchObject({ prompt: PROMPT, rrule: WEEKDAYS_9, catchUp: true, paused: false, lastRun: null })
      expect(task!.nextRunAt).not.toBeNull()
      const next = new Date(task!.nextRunAt!)
      expect([next.getHours(), next.getMinutes()], task!.nextRunAt!).toEqual([9, 0])
      expect(next.getDay(), 'a weekday').not.toBe(0)
      expect(next.getDay(), 'a weekday').not.toBe(6)
      expect(await row.locator('[data-testid="task-schedule"]').textContent()).toContain('09:00')
      const nextText = await row.locator('[data-testid="task-next"]').textContent()
      expect(nextText).toMatch(/^next in /)
      expect(await row.locator('[data-testid="task-next"] time').getAttribute('datetime')).toBe(task!.nextRunAt)
      expect(await row.locator('[data-testid="task-last-run"]').textContent()).toBe('Not run yet.')

      // Run now: the result (the fake model's reply) comes into the list.
      await row.getByRole('button', { name: 'Run now' }).click()
      await page.locator(`${ROW}[data-task-id="${task!.id}"][data-run-status="done"]`).waitFor({ timeout: UI_TIMEOUT })
      const result = await row.locator('[data-testid="task-result"]').textContent()
      expect(result).toContain('pineapple')
      expect(await row.locator('[data-testid="task-run-status"]').textContent()).toBe('done')
      const [ran] = await listTasks(s)
      expect(ran!.lastRun).toMatchObject({ status: 'done', manual: true })
      expect(ran!.lastRun!.result).toBe(result)

      // A grant of its own, from the row: run `ls` without asking, listed and saved.
      expect(await row.locator('[data-testid="task-grants-none"]').isVisible()).toBe(true)
      await row.getByLabel('Add a grant', { exact: true }).selectOption('shell')
      await row.getByLabel('What it may use', { exact: true }).fill('ls')
      await row.getByRole('button', { name: 'Add', exact: true }).click()
      await row.locator('[data-testid="task-grant"][data-kind="shell"][data-base="ls"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="task-grant-words"]').allTextContents()).toEqual(['run ls'])
      expect(await row.getByRole('button', { name: 'Remove: run ls' }).isEnabled()).toBe(true)
      expect((await getTask(s, task!.id)).grants).toEqual([{ kind: 'shell', base: 'ls' }])

      // The screenshot shows the section, drawn.
      const section = page.locator(SECTION)
      await section.scrollIntoViewIfNeeded()
      expect(await section.isVisible()).toBe(true)
      const box = await section.boundingBox()
      expect(box, 'section box').not.toBeNull()
      expect(box!.width, JSON.stringify(box)).toBeGreaterThan(300)
      expect(box!.height, JSON.stringify(box)).toBeGreaterThan(200)
      const png = await section.screenshot({ path: artifact('tasks-section.png') })
      expect(await inkShare(page, png), 'share of the section screenshot that is text or borders').toBeGreaterThan(0.01)

      // Pause: the row and the server say so.
      await row.getByRole('button', { name: 'Pause' }).click()
      await page.locator(`${ROW}[data-task-id="${task!.id}"][data-paused="true"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="task-next"]').textContent()).toBe('paused')
      expect(await row.getByRole('button', { name: 'Resume' }).isVisible()).toBe(true)
      expect((await listTasks(s))[0]?.paused).toBe(true)

      // Its conversation opens from the link and shows the reply.
      await row.getByRole('link', { name: 'Open its conversation' }).click()
      await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      await page.waitForFunction((id) => location.hash === `#/c/${id}`, task!.conversationId, { timeout: UI_TIMEOUT })
      const reply = page.locator('[data-testid="message"][data-role="assistant"]').filter({ hasText: 'pineapple' })
      await reply.first().waitFor({ timeout: UI_TIMEOUT })
      // The prompt it ran is marked as the task's.
      const asked = page.locator('[data-testid="message"][data-role="user"][data-source="task"]')
      expect(await asked.locator('[data-testid="message-source"]').textContent()).toBe('Scheduled task')
      expect(await asked.locator('[data-testid="message-text"]').textContent()).toBe(PROMPT)
      await page.screenshot({ path: artifact('tasks-conversation.png') })
    })
  })

  it('asks on a card before the agent schedules a task (SCHEDULE_TASK), and lists it once allowed', async () => {
    const prompt = 'Check my inbox folder and summarise'
    const call = { id: 'call_task', name: 'SCHEDULE_TASK', arguments: { prompt, rrule: WEEKDAYS_9 } }
    llm = await startFakeLLM({ script: [{ toolCalls: [call] }, { text: ['Scheduled.'] }] })
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
      await page.fill('[data-testid="composer"]', 'Every weekday at 9, check my inbox folder and summarise')
      await page.click('[data-testid="send"]')

      const card = page.locator('[data-testid="approval-card"][data-kind="task"][data-status="pending"]')
      await card.waitFor({ timeout: UI_TIMEOUT })
      expect(await card.locator('[data-testid="task-approval-prompt"]').textContent()).toBe(prompt)
      expect(await card.locator('[data-testid="task-approval-schedule"]').textContent()).toContain('09:00')
      expect(await card.locator('[data-testid="approve-always"]').count(), 'never an always answer').toBe(0)
      expect(await listTasks(s)).toEqual([])
      const png = await card.screenshot({ path: artifact('tasks-approval-card.png') })
      expect(await inkShare(page, png), 'share of the card screenshot that is text or borders').toBeGreaterThan(0.01)

      await card.getByRole('button', { name: 'Allow' }).click()
      await page.locator('[data-testid="approval-card"][data-kind="task"][data-status="approved"]').waitFor({ timeout: UI_TIMEOUT })
      await page.locator('[data-testid="message"][data-role="assistant"]').filter({ hasText: 'Scheduled.' }).waitFor({ timeout: UI_TIMEOUT })
      const [task] = await listTasks(s)
      expect(task).toMatchObject({ prompt, rrule: WEEKDAYS_9, paused: false })

      await openTasks(page)
      const row = page.locator(`${ROW}[data-task-id="${task!.id}"]`)
      await row.waitFor({ timeout: UI_TIMEOUT })
      expect(await row.locator('[data-testid="task-prompt"]').textContent()).toBe(prompt)
    })
  })
})
