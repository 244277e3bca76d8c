// End to end MCP tools (docs/mcp.md): the real server binary running a real stdio
// MCP server from npm (@modelcontextprotocol/server-everything, pinned in
// package.json), the fake LLM scripted to call its echo tool, the built UI,
// headless Chromium. Needs `npm run build`, the server binary (WISP_BIN) and the
// fake LLM (WISP_FAKELLM_BIN).

import { existsSync, rmSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, freshStateDir, serverPerTest } from './server'

const EVERYTHING = resolve(import.meta.dirname, '../node_modules/@modelcontextprotocol/server-everything/dist/index.js')
const ASSISTANT = '[data-testid="message"][data-role="assistant"]'
const CARD = '[data-testid="approval-card"][data-kind="mcp"]'
const SERVER = '[data-testid="mcp-server"][data-name="everything"]'

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

/** Waits for the last reply to be done with text matching want; returns its text. */
async function waitForReply(page: Page, want: RegExp): Promise<string> {
  try {
    await page.waitForFunction(
      ([selector, src]) => {
        const last = [...document.querySelectorAll(selector)].pop()
        const text = last?.querySelector('[data-testid="message-text"]')?.textContent ?? ''
        return last?.getAttribute('data-status') === 'done' && new RegExp(src).test(text)
      },
      [ASSISTANT, want.source] as const,
      { timeout: UI_TIMEOUT },
    )
  } catch (err) {
    const seen = await page.locator(ASSISTANT).allTextContents()
    throw new Error(`the reply never matched ${want}; replies: ${JSON.stringify(seen)}`, { cause: err })
  }
  return (await page.locator(ASSISTANT).last().locator('[data-testid="message-text"]').textContent()) ?? ''
}

describe('MCP tools', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null
  let stateDir: string | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
    if (!existsSync(EVERYTHING)) throw new Error(`the MCP server from npm is not installed: ${EVERYTHING} (npm ci)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
    if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true })
    stateDir = null
  })

  it('lists a real stdio server in Settings → Tools, asks before its tool runs, and puts the result in the reply', async () => {
    // The model calls echo; after the result the fake model says what the tool said.
    llm = await startFakeLLM({ script: [{ toolCalls: [{ id: 'call_mcp', name: 'everything__echo', arguments: { message: 'hello from MCP' } }] }] })
    stateDir = freshStateDir()
    writeFileSync(
      join(stateDir, 'wisp.json'),
      JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } } }),
    )
    const s = await start({ stateDir, env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)

      // Settings → Tools: the server runs and lists its tools.
      await page.click('[data-testid="settings-toggle"]')
      const server = page.locator(SERVER)
      await page.locator(`${SERVER}[data-status="running"]`).waitFor({ timeout: UI_TIMEOUT })
      expect(await server.locator('[data-testid="mcp-transport"]').textContent()).toMatch(/stdio/)
      const echo = server.locator('[data-testid="mcp-tool"][data-action="everything__echo"]')
      expect(await echo.count()).toBe(1)
      expect(await server.locator('[data-testid="mcp-tool"]').count()).toBeGreaterThan(5)
      // A long list of tools starts folded.
      expect(await server.locator('[data-testid="mcp-tools"]').getAttribute('open')).toBeNull()
      await server.scrollIntoViewIfNeeded()
      const list = await server.screenshot({ path: artifact('mcp-tools.png') })
      expect(await inkShare(page, list), 'share of the Tools screenshot that is text or borders').toBeGreaterThan(0.01)
      await page.click('[data-testid="settings-toggle"]')

      // The model calls the tool: the card names server, tool and arguments.
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', 'echo something')
      await page.click('[data-testid="send"]')
      const card = page.locator(`${CARD}[data-status="pending"]`)
      await card.waitFor({ timeout: UI_TIMEOUT })
      expect(await card.locator('[data-testid="approval-mcp-server"]').textContent()).toBe('everything')
      expect(await card.locator('[data-testid="approval-mcp-tool"]').getAttribute('data-tool')).toBe('echo')
      expect(await card.locator('[data-testid="approval-mcp-arguments"]').textContent()).toContain('"hello from MCP"')
      expect(await card.locator('[data-testid="approve-always"]').getAttribute('data-base')).toBe('everything.echo')
      const png = await card.screenshot({ path: artifact('mcp-approval-card.png') })
      expect(await inkShare(page, png), 'share of the card screenshot that is text or borders').toBeGreaterThan(0.01)

      // Allowed once: the tool runs and its answer reaches the reply.
      await card.locator('[data-testid="approve-once"]').click()
      const text = await waitForReply(page, /The tool said: Echo: hello from MCP/)
      expect(text).toContain('✓')
      expect(await page.locator(`${CARD}[data-status="approved"]`).count()).toBe(1)
    })
  })
})
