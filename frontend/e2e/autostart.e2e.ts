// End to end "Open Wisp when I log in": the real server binary with
// XDG_CONFIG_HOME in a temporary folder, the built UI, headless Chromium. The
// switch in Settings writes and removes $XDG_CONFIG_HOME/autostart/wisp.desktop,
// and shows the entry on disk. Needs `npm run build` and the server binary
// (WISP_BIN, default ../build/bin/wisp-serve).

import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, expectTestId, withBrowser } from './browser'
import { CLEAN_ENV, freshStateDir, serverPerTest, wispBinary } from './server'

const SWITCH = '[data-testid="setting-desktop.openAtLogin"]'

async function openSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings-path"]').waitFor({ timeout: UI_TIMEOUT })
}

/** Flips the switch, saves, and waits until the server has answered (the entry is written or removed by then). */
async function setAndSave(page: Page, on: boolean): Promise<void> {
  await page.locator(SWITCH).setChecked(on)
  await page.click('[data-testid="settings-save"]')
  await expectTestId(page, 'settings-saved', 'Saved. Changes are live.')
}

describe('open Wisp when I log in', () => {
  const start = serverPerTest()
  const made: string[] = []
  afterEach(() => {
    for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
  })

  it('writes the autostart entry for this binary, shows the entry on disk, and removes it', async () => {
    const xdg = mkdtempSync(join(tmpdir(), 'wisp-e2e-xdg-'))
    const stateDir = freshStateDir()
    made.push(xdg, stateDir)
    const entry = join(xdg, 'autostart', 'wisp.desktop')
    const s = await start({ stateDir, env: { ...CLEAN_ENV, XDG_CONFIG_HOME: xdg } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await openSettings(page)
      expect(await page.locator(SWITCH).isChecked()).toBe(false)
      expect(existsSync(entry)).toBe(false)

      await setAndSave(page, true)
      const text = readFileSync(entry, 'utf8')
      expect(text).toContain('[Desktop Entry]\n')
      expect(text).toContain(`\nExec=${realpathSync(wispBinary())} serve --state-dir ${stateDir}\n`)
      await page.locator('[data-testid="settings-section-login"]').screenshot({ path: artifact('autostart-on.png') })

      // Deleted by hand: the settings, read again, show it off.
      rmSync(entry)
      await page.reload()
      await expectTestId(page, 'conn-state', 'connected')
      await openSettings(page)
      expect(await page.locator(SWITCH).isChecked()).toBe(false)

      await setAndSave(page, true)
      expect(existsSync(entry)).toBe(true)
      await setAndSave(page, false)
      expect(existsSync(entry)).toBe(false)
      expect(await page.locator(SWITCH).isChecked()).toBe(false)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
