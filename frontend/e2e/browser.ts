// Headless Chromium (Debian's) for the browser tests, and small page helpers.

import { mkdirSync } from 'node:fs'
import { resolve } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'

export const ARTIFACTS = resolve(import.meta.dirname, 'artifacts')
export const UI_TIMEOUT = 45_000

const launchArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
]

export interface BrowserOptions {
  colorScheme?: 'dark' | 'light'
  viewport?: { width: number; height: number }
  /** Extra Chromium switches, after the defaults (software WebGL, WebGL off, ...). */
  args?: string[]
}

export async function withBrowser<T>(fn: (page: Page) => Promise<T>, opts: BrowserOptions = {}): Promise<T> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [...launchArgs, ...(opts.args ?? [])],
  })
  try {
    const context = await browser.newContext({
      viewport: opts.viewport ?? { width: 1280, height: 800 },
      colorScheme: opts.colorScheme ?? 'dark',
    })
    const page = await context.newPage()
    page.on('pageerror', (err) => console.error('[page error]', err))
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') console.error(`[browser console ${msg.type()}]`, msg.text())
    })
    return await fn(page)
  } finally {
    await browser.close()
  }
}

export async function expectTestId(page: Page, testId: string, text: string): Promise<void> {
  await page.waitForFunction(
    ([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent === want,
    [testId, text] as const,
    { timeout: UI_TIMEOUT },
  )
}

export function artifact(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true })
  return resolve(ARTIFACTS, name)
}
