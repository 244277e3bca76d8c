// End to end export and import: the real server binary answering with the fake
// LLM, the built UI, headless Chromium. A conversation is exported from the chat
// view (JSON and Markdown, downloaded by the browser) and every conversation from
// Settings; files are imported through Settings (Wisp's own export, ChatGPT's
// conversations.json, a bad file) and what came in shows in the list. Needs `npm
// run build`, the server binary (WISP_BIN) and the fake LLM (WISP_FAKELLM_BIN).

import { existsSync, readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Download, Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { serverPerTest } from './server'

const STEP_TIMEOUT = 15_000
const CHATGPT_FIXTURE = resolve(import.meta.dirname, '../../app/archive/testdata/chatgpt/conversations.json')

interface WispExport {
  format: string
  version: number
  conversations: { id: string; title: string; messages: { role: string; text: string }[]; runs: { status: string }[] }[]
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

/** Clicks an export button and returns the file the browser downloaded, with its name. */
async function download(page: Page, testId: string): Promise<{ name: string; text: string }> {
  const [file] = await Promise.all([
    page.waitForEvent('download', { timeout: STEP_TIMEOUT }) as Promise<Download>,
    page.click(`[data-testid="${testId}"]`),
  ])
  const path = await file.path()
  return { name: file.suggestedFilename(), text: readFileSync(path, 'utf8') }
}

async function openSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings-section-data"]').waitFor({ timeout: UI_TIMEOUT })
}

async function closeSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-close"]')
  await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
}

/** Picks a file in Settings' import and waits for the answer (result or error) to show. */
async function importFile(page: Page, file: string | { name: string; mimeType: string; buffer: Buffer }): Promise<string> {
  await page.setInputFiles('[data-testid="import-file"]', file)
  const answer = page.locator('[data-testid="import-result"], [data-testid="import-error"]')
  await answer.waitFor({ timeout: STEP_TIMEOUT })
  return (await answer.textContent()) ?? ''
}

async function conversationTitles(page: Page): Promise<string[]> {
  return page.locator('[data-testid="conversation-title"]').allTextContents()
}

describe('export and import', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
    if (!existsSync(CHATGPT_FIXTURE)) throw new Error(`ChatGPT fixture not found: ${CHATGPT_FIXTURE}`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('exports a conversation as JSON and Markdown, and everything from Settings; importing that back adds nothing', async () => {
    llm = await startFakeLLM({ delay: '1ms' })
    const s = await start({ env: fakeModelEnv(llm.url) })
    const text = 'remember to feed the sourdough starter'
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', text)
      await page.click('[data-testid="send"]')
      await page.waitForFunction(
        () => document.querySelector('[data-testid="message"][data-role="assistant"]')?.getAttribute('data-status') === 'done',
        undefined,
        { timeout: UI_TIMEOUT },
      )

      const json = await download(page, 'export-conversation-json')
      expect(json.name).toMatch(/^wisp-[a-z0-9-]+-\d{8}-\d{6}\.json$/)
      const doc = JSON.parse(json.text) as WispExport
      expect(doc.format).toBe('wisp-export')
      expect(doc.version).toBe(2)
      expect(doc.conversations).toHaveLength(1)
      const conv = doc.conversations[0]!
      expect(conv.messages.map((m) => [m.role, m.text])).toEqual([
        ['user', text],
        ['assistant', `You said: ${text}`],
      ])
      expect(conv.runs.map((r) => r.status)).toEqual(['ended'])
      await page.getByText(`Downloaded ${json.name}`).waitFor({ timeout: STEP_TIMEOUT })

      const md = await download(page, 'export-conversation-md')
      expect(md.name).toMatch(/\.md$/)
      expect(md.text).toContain(`# ${conv.title}\n`)
      expect(md.text).toMatch(/\n## You · \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC\n\nremember to feed the sourdough starter\n/)
      expect(md.text).toContain(`\nYou said: ${text}\n`)
      const shot = await page.locator('.chat-view').screenshot({ path: artifact('export-conversation.png') })
      expect(await inkShare(page, shot), 'share of the chat screenshot that is text or borders').toBeGreaterThan(0.005)

      await openSettings(page)
      const all = await download(page, 'export-all-json')
      expect(all.name).toMatch(/^wisp-conversations-\d{8}-\d{6}\.json$/)
      const everything = JSON.parse(all.text) as WispExport
      expect(everything.conversations.map((c) => c.id)).toEqual([conv.id])

      // Back into the Wisp it came from: already here, left as it is.
      const answer = await importFile(page, { name: all.name, mimeType: 'application/json', buffer: Buffer.from(all.text) })
      expect(answer).toBe('1 conversation was already here and left as it was.')
      await closeSettings(page)
      expect(await conversationTitles(page)).toHaveLength(1)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it("imports ChatGPT's conversations.json through Settings: the conversations appear and open; a bad file is refused", async () => {
    llm = await startFakeLLM({ delay: '1ms' })
    const s = await start({ env: fakeModelEnv(llm.url) })
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      expect(await conversationTitles(page)).toEqual([])

      await openSettings(page)
      const bad = await importFile(page, {
        name: 'notes.json',
        mimeType: 'application/json',
        buffer: Buffer.from('{"format": "notes", "version": 1}'),
      })
      expect(bad).toBe('Import failed: format "notes" is not a Wisp export ("wisp-export")')

      const answer = await importFile(page, CHATGPT_FIXTURE)
      expect(answer).toBe('Imported 3 conversations.')
      // Every open UI hears of them (conversation-updated over /ws).
      await page.waitForFunction(
        () => document.querySelectorAll('[data-testid="conversation-item"]').length === 3,
        undefined,
        { timeout: STEP_TIMEOUT },
      )
      const settings = await page.locator('[data-testid="settings-section-data"]').screenshot({ path: artifact('import-result.png') })
      expect(await inkShare(page, settings), 'share of the import screenshot that is text or borders').toBeGreaterThan(0.01)

      const again = await importFile(page, CHATGPT_FIXTURE)
      expect(again).toBe('3 conversations were already here and left as they were.')
      await closeSettings(page)

      expect((await conversationTitles(page)).sort()).toEqual(
        ['ChatGPT conversation', 'Re-plot a chart', 'Sourdough starter troubleshooting'].sort(),
      )
      await page.locator('[data-testid="conversation-title"]', { hasText: 'Sourdough starter troubleshooting' }).click()
      // The visible branch only: the edited question and the regenerated answer.
      await page.getByText('Move it somewhere warmer').waitFor({ timeout: STEP_TIMEOUT })
      const texts = await page.locator('[data-testid="message-text"]').allTextContents()
      expect(texts).toHaveLength(4)
      expect(texts[2]).toContain('Once a day with all-purpose flour')
      expect(texts.join('\n')).not.toContain('Once a day, with rye.')
      expect(texts.join('\n')).not.toContain('(first answer)')
      const chat = await page.screenshot({ path: artifact('import-chatgpt-conversation.png') })
      expect(await inkShare(page, chat), 'share of the imported conversation screenshot that is text or borders').toBeGreaterThan(0.01)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
