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

/**
 * The share of a screenshot's pixels that differ clearly from its most common
 * colour (the card's background): text and borders. Read by the browser itself.
 */
export async function inkShare(page: Page, png: Buffer): Promise<number> {
  return page.evaluate(async (b64) => {
    const img = new Image()
    img.src = `data:image/png;base64,${b64}`
    await img.decode()
    const canvas = document.createElement('canvas')
    canvas.width = img.naturalWidth
    canvas.height = img.naturalHeight
    const ctx = canvas.getContext('2d')
    if (ctx === null || canvas.width === 0 || canvas.height === 0) return 0
    ctx.drawImage(img, 0, 0)
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
    const counts = new Map<number, number>()
    for (let i = 0; i < data.length; i += 4) {
      const key = (data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!
      counts.set(key, (counts.get(key) ?? 0) + 1)
    }
    const bg = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]![0]
    const [r, g, b] = [(bg >> 16) & 255, (bg >> 8) & 255, bg & 255]
    let ink = 0
    for (let i = 0; i < data.length; i += 4) {
      if (Math.abs(data[i]! - r) + Math.abs(data[i + 1]! - g) + Math.abs(data[i + 2]! - b) > 60) ink++
    }
    return ink / (data.length / 4)
  }, png.toString('base64'))
}
