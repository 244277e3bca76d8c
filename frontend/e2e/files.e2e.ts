// End to end, the agent's file edits (docs/files.md): the real server binary
// with files.roots set to a temporary folder, the fake LLM scripted to read a
// file there then edit it, the built UI, headless Chromium. The read asks
// first (Allow once), the edit's card shows its diff (screenshot checked for
// ink and kept in e2e/artifacts), the user allows it from the card, the file on
// disk changes, and "Undo this edit" in the chat puts it back; a reload still
// shows the edit as undone. Needs `npm run build`, the server binary (WISP_BIN)
// and the fake LLM (WISP_FAKELLM_BIN).

import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, freshStateDir, serverPerTest } from './server'

const CARD = '[data-testid="approval-card"]'
const ASSISTANT = '[data-testid="message"][data-role="assistant"]'

async function send(page: Page, text: string): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
  await page.fill('[data-testid="composer"]', text)
  await page.click('[data-testid="send"]')
}

describe('file edits', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null
  let dirs: string[] = []

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })
  afterEach(async () => {
    await llm?.stop()
    llm = null
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })

  it('shows the diff of an edit on its card, applies it once allowed, and undoes it from the chat', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wisp-e2e-root-'))
    const stateDir = freshStateDir()
    dirs = [root, stateDir]
    const file = join(root, 'notes.md')
    const before = '# Shopping\n- apples\n- bred\n- milk\n'
    writeFileSync(file, before)
    llm = await startFakeLLM({
      delay: '0ms',
      script: [
        { toolCalls: [{ id: 'call_r', name: 'READ_FILE', arguments: { path: 'notes.md', reason: 'See your list' } }] },
        {
          toolCalls: [
            { id: 'call_e', name: 'EDIT_FILE', arguments: { path: 'notes.md', oldText: '- bred\n', newText: '- bread\n- eggs\n', reason: 'Fix bread, add eggs' } },
          ],
        },
        { text: ['Fixed the typo and added eggs.'] },
      ],
    })
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ files: { roots: [root] } }))
    const s = await start({ stateDir, env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await send(page, 'fix my shopping list and add eggs')

      // Reading asks first.
      const readCard = page.locator(`${CARD}[data-kind="file_read"][data-status="pending"]`)
      await readCard.waitFor({ timeout: UI_TIMEOUT })
      expect(await readCard.locator('[data-testid="approval-path"]').textContent()).toBe('notes.md')
      await readCard.locator('[data-testid="approve-once"]').click()

      // The edit's card: its diff, nothing written yet.
      const card = page.locator(`${CARD}[data-kind="file_edit"][data-status="pending"]`)
      await card.waitFor({ timeout: UI_TIMEOUT })
      const view = card.locator('[data-testid="diff-view"]')
      expect(await view.getAttribute('data-added')).toBe('2')
      expect(await view.getAttribute('data-removed')).toBe('1')
      const rows = await view.locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-kind'), tr.textContent]))
      expect(rows).toEqual([
        ['file', '--- a/notes.md'],
        ['file', '+++ b/notes.md'],
        ['hunk', '@@ -1,4 +1,5 @@'],
        ['ctx', '11 # Shopping'],
        ['ctx', '22 - apples'],
        ['del', '3-- bred'],
        ['add', '3+- bread'],
        ['add', '4+- eggs'],
        ['ctx', '45 - milk'],
      ])
      const added = await view.locator('tr[data-kind="add"]').first().evaluate((tr) => getComputedStyle(tr).backgroundColor)
      const removed = await view.locator('tr[data-kind="del"]').first().evaluate((tr) => getComputedStyle(tr).backgroundColor)
      expect(added).not.toBe(removed)
      expect(await card.locator('[data-testid="approve-always"]').textContent()).toMatch(/^Always allow edits under /)
      expect(readFileSync(file, 'utf8')).toBe(before)
      await card.scrollIntoViewIfNeeded()
      const png = await card.screenshot({ path: artifact('file-edit-card.png') })
      expect(await inkShare(page, png), 'share of the diff card that is text, borders or colored lines').toBeGreaterThan(0.02)

      await card.locator('[data-testid="approve-once"]').click()
      await page.locator(`${CARD}[data-kind="file_edit"][data-status="approved"]`).waitFor({ timeout: UI_TIMEOUT })
      await page.waitForFunction(
        ([selector]) => {
          const bubbles = document.querySelectorAll(selector!)
          const last = bubbles[bubbles.length - 1]
          return last?.getAttribute('data-status') === 'done' && (last.textContent ?? '').includes('added eggs')
        },
        [ASSISTANT] as const,
        { timeout: UI_TIMEOUT },
      )
      const after = '# Shopping\n- apples\n- bread\n- eggs\n- milk\n'
      expect(readFileSync(file, 'utf8')).toBe(after)

      // Undo, from the edit's tool call in the chat.
      const undo = page.locator('[data-testid="undo-edit"]')
      await undo.waitFor({ timeout: UI_TIMEOUT })
      await undo.click()
      await page.locator('[data-testid="edit-undo"][data-state="undone"]').waitFor({ timeout: UI_TIMEOUT })
      expect(readFileSync(file, 'utf8')).toBe(before)

      // After a reload the edit is still shown as undone.
      await page.reload()
      await page.locator('[data-testid="edit-undo"][data-state="undone"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator('[data-testid="undo-edit"]').count()).toBe(0)
    })
  })
})
