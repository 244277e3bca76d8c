// End to end settings: the real server binary with its config watcher, the
// built UI, headless Chromium. Needs `npm run build` and the server binary
// (WISP_BIN, default ../build/bin/wisp-serve).

import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, expectTestId, withBrowser } from './browser'
import { CLEAN_ENV, RUNNING, freePort, freshStateDir, pageURL, serverOf, serverPerTest, wispBinary } from './server'
import { spawnUntilReady } from './process'

const STEP_TIMEOUT = 15_000

async function openSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings"]').waitFor({ timeout: UI_TIMEOUT })
  // Loaded: the config file's path is shown.
  await page.locator('[data-testid="settings-path"]').waitFor({ timeout: STEP_TIMEOUT })
}

async function waitForScreenText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="terminal-screen"] .xterm-rows')?.textContent?.includes(want) === true,
    text,
    { timeout: STEP_TIMEOUT },
  )
}

/** Records every text the agent state badge shows from now on (window.__agentStates). */
async function recordAgentStates(page: Page): Promise<void> {
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="agent-state"]')
    const seen: string[] = [el?.textContent ?? '']
    Object.assign(window, { __agentStates: seen })
    if (el === null) return
    new MutationObserver(() => seen.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    })
  })
}

interface ConfigFile {
  files?: { roots?: unknown }
  web?: { allowHosts?: unknown; search?: { provider?: unknown } }
  features?: { shellEnabled?: unknown }
  character?: { name?: unknown }
  terminal?: { maxConcurrent?: unknown }
}

function readConfig(stateDir: string): ConfigFile {
  return JSON.parse(readFileSync(join(stateDir, 'wisp.json'), 'utf8')) as ConfigFile
}

describe('settings', () => {
  const start = serverPerTest()
  let stateDir: string | null = null

  afterEach(() => {
    if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true })
    stateDir = null
  })

  /** A server on a fresh state folder (removed after the test), with the shell settings of the machine kept out. */
  async function startFresh() {
    const dir = freshStateDir()
    stateDir = dir
    return { dir, s: await start({ stateDir: dir, env: CLEAN_ENV }) }
  }

  it('turns shell access on, restarts from the banner, and the terminal then runs commands', async () => {
    const { dir, s } = await startFresh()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await expectTestId(page, 'agent-state', 'running')
      expect(await page.locator('[data-testid="restart-banner"]').count()).toBe(0)

      await openSettings(page)
      expect(await page.locator('[data-testid="settings-path"]').textContent()).toBe(join(dir, 'wisp.json'))
      const shell = page.locator('[data-testid="settings-shell"]')
      expect(await shell.isChecked()).toBe(false)
      // The shell switch and the terminal limits say they need a restart.
      const shellSection = page.locator('[data-testid="settings-section-shell"]')
      expect(await shellSection.locator('.tag-restart').count()).toBe(1)
      await page.screenshot({ path: artifact('settings.png') })

      await shell.check()
      const banner = page.locator('[data-testid="restart-banner"]')
      await banner.waitFor({ timeout: STEP_TIMEOUT })
      await banner.getByText('Shell access enabled').waitFor({ timeout: STEP_TIMEOUT })
      expect(await shell.isChecked()).toBe(true)
      expect(readConfig(dir).features?.shellEnabled).toBe(true)
      await page.screenshot({ path: artifact('restart-banner.png') })

      // The banner stays in reach while the settings are open.
      await recordAgentStates(page)
      await page.click('[data-testid="restart-now"]')
      await banner.waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      await expectTestId(page, 'agent-state', 'running')
      const states = await page.evaluate(() => (window as unknown as { __agentStates: string[] }).__agentStates)
      expect(states).toContain('restarting')
      expect(states[states.length - 1]).toBe('running')

      await page.keyboard.press('Escape')
      await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })

      await page.click('[data-testid="terminal-toggle"]')
      await page.locator('[data-testid="terminal-panel"]').waitFor({ timeout: UI_TIMEOUT })
      const command = page.locator('[data-testid="terminal-command"]')
      await command.waitFor({ timeout: STEP_TIMEOUT })
      await command.fill('echo wisp-restart-ok')
      await command.press('Enter')
      await waitForScreenText(page, 'wisp-restart-ok')
      await page.screenshot({ path: artifact('settings-after-restart.png') })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('lets the agent work in a folder and reach a host: Files and web, saved at once', async () => {
    const { dir, s } = await startFresh()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await openSettings(page)
      const section = page.locator('[data-testid="settings-section-hands"]')
      await section.scrollIntoViewIfNeeded()
      // None by default: no file access.
      expect(await section.locator('[data-testid="files-roots-empty"]').textContent()).toContain('cannot read or change any file')
      await section.getByLabel('Add to folders the agent may work in').fill('project')
      await section.locator('[data-testid="files-roots-add"]').click()
      expect(await section.locator('[data-testid="files-roots-error"]').textContent()).toContain('absolute path')
      await section.getByLabel('Add to folders the agent may work in').fill(join(dir, 'project'))
      await section.locator('[data-testid="files-roots-add"]').click()
      await section.getByLabel('Add to hosts on your network the agent may fetch').fill('nas.local')
      await section.getByLabel('Add to hosts on your network the agent may fetch').press('Enter')
      await section.getByLabel('Web search', { exact: true }).selectOption('searxng')
      await section.getByLabel('Search server').fill('http://127.0.0.1:8888')
      await section.locator('[data-testid="hands-save"]').click()
      await expectTestId(page, 'hands-note', 'Saved. The agent uses it from its next action.')
      // Enter in the list's input added the host; it did not submit the whole settings form.
      expect(await page.locator('[data-testid="settings-saved"]').count()).toBe(0)
      const file = readConfig(dir)
      expect(file.files?.roots).toEqual([join(dir, 'project')])
      expect(file.web?.allowHosts).toEqual(['nas.local'])
      expect(file.web?.search?.provider).toBe('searxng')
      await section.screenshot({ path: artifact('settings-files-web.png') })

      // Kept across a reload of the page.
      await page.reload()
      await openSettings(page)
      const items = page.locator('[data-testid="settings-section-hands"] [data-testid="files-roots-item"] code')
      expect(await items.allTextContents()).toEqual([join(dir, 'project')])
    })
  })

  it('applies a new character name at once, without a restart', async () => {
    const { dir, s } = await startFresh()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await expectTestId(page, 'agent-name', 'Wisp')

      await openSettings(page)
      const name = page.locator('[data-testid="setting-character.name"]')
      expect(await name.inputValue()).toBe('Wisp')
      expect(await page.locator('[data-testid="settings-save"]').isDisabled()).toBe(true)
      await name.fill('Nova')
      await page.click('[data-testid="settings-save"]')
      await expectTestId(page, 'settings-saved', 'Saved. Changes are live.')
      await expectTestId(page, 'agent-name', 'Nova')
      expect(readConfig(dir).character?.name).toBe('Nova')
      expect(await page.locator('[data-testid="restart-banner"]').count()).toBe(0)

      // The theme applies at once too.
      await page.selectOption('[data-testid="setting-ui.theme"]', 'light')
      await page.click('[data-testid="settings-save"]')
      await expectTestId(page, 'settings-saved', 'Saved. Changes are live.')
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light')
      await page.screenshot({ path: artifact('settings-light.png') })

      // A value the server refuses is shown under its field, with the server's reason, and nothing is saved.
      await page.fill('[data-testid="setting-terminal.maxConcurrent"]', '40')
      await page.click('[data-testid="settings-save"]')
      const fieldError = page.locator('[data-testid="setting-terminal.maxConcurrent-error"]')
      await fieldError.waitFor({ timeout: STEP_TIMEOUT })
      expect(await fieldError.textContent()).toContain('terminal.maxConcurrent')
      expect(await page.locator('[data-testid="settings-error"]').textContent()).toMatch(/^Not saved: /)
      expect(readConfig(dir).terminal?.maxConcurrent).not.toBe(40)

      // The narrowest desktop window still shows the view and its Save button.
      await page.setViewportSize({ width: 720, height: 480 })
      await page.locator('[data-testid="settings-save"]').scrollIntoViewIfNeeded()
      const save = await page.locator('[data-testid="settings-save"]').boundingBox()
      expect(save).not.toBeNull()
      expect(save!.y + save!.height).toBeLessThanOrEqual(480)
      await page.screenshot({ path: artifact('settings-720x480.png') })
      expect(await page.locator('[data-testid="restart-banner"]').count()).toBe(0)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('says when the config file is broken and blocks saving until it is fixed', async () => {
    const { dir, s } = await startFresh()
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await openSettings(page)

      writeFileSync(join(dir, 'wisp.json'), '{"character": {"name": ')
      const notice = page.locator('[data-testid="config-error"]')
      await notice.waitFor({ timeout: STEP_TIMEOUT })
      await page.locator('[data-testid="settings-config-error"]').waitFor({ timeout: STEP_TIMEOUT })
      expect(await page.locator('[data-testid="settings-save"]').isDisabled()).toBe(true)
      await page.screenshot({ path: artifact('settings-config-error.png') })

      writeFileSync(join(dir, 'wisp.json'), JSON.stringify({ character: { name: 'Fixed' } }))
      await notice.waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
      await page.locator('[data-testid="settings-config-error"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
      await expectTestId(page, 'agent-name', 'Fixed')
      expect(await page.locator('[data-testid="setting-character.name"]').inputValue()).toBe('Fixed')
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('follows the server to its new port after a restart', async () => {
    const dir = freshStateDir()
    stateDir = dir
    const from = await freePort()
    let to = await freePort()
    while (to === from) to = await freePort()
    writeFileSync(join(dir, 'wisp.json'), JSON.stringify({ server: { port: from } }))
    // Without --port, which would override the file's port for this process.
    const s = serverOf(
      await spawnUntilReady(wispBinary(), ['serve', '--state-dir', dir], {
        name: 'wisp',
        env: { ...CLEAN_ENV, WISP_API_TOKEN: '', WISP_PORT: undefined },
        ready: RUNNING,
        timeoutMs: 60_000,
      }),
    )
    try {
      expect(s.url).toBe(`http://127.0.0.1:${from}`)
      await withBrowser(async (page) => {
        // The token goes along to the new port (its own origin, with its own storage).
        await page.goto(pageURL(s, '#/'))
        await expectTestId(page, 'conn-state', 'connected')
        await openSettings(page)
        await page.fill('[data-testid="setting-server.port"]', String(to))
        await page.click('[data-testid="settings-save"]')
        const banner = page.locator('[data-testid="restart-banner"]')
        await banner.getByText(`${from} → ${to}`).waitFor({ timeout: STEP_TIMEOUT })

        await page.click('[data-testid="restart-now"]')
        await page.waitForURL(`http://127.0.0.1:${to}/#/`, { timeout: UI_TIMEOUT })
        await expectTestId(page, 'conn-state', 'connected')
        await expectTestId(page, 'agent-state', 'running')
        expect(await page.locator('[data-testid="restart-banner"]').count()).toBe(0)
      })
    } finally {
      expect(await s.stop(), s.output()).toBe(0)
    }
  })
})
