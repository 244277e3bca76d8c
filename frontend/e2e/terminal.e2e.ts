// End to end terminal: the real server binary running shell commands in
// pseudo-terminals, the built UI with xterm.js, headless Chromium. Needs
// `npm run build` and the server binary (WISP_BIN, default ../build/bin/wisp-serve).

import { rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, expectTestId, withBrowser } from './browser'
import { CLEAN_ENV, freshStateDir, serverPerTest } from './server'

const STEP_TIMEOUT = 10_000

async function openTerminal(page: Page): Promise<void> {
  await page.click('[data-testid="terminal-toggle"]')
  await page.locator('[data-testid="terminal-panel"]').waitFor({ timeout: UI_TIMEOUT })
}

async function runCommand(page: Page, command: string): Promise<void> {
  await page.fill('[data-testid="terminal-command"]', command)
  await page.press('[data-testid="terminal-command"]', 'Enter')
}

async function waitForStatus(page: Page, status: string, text?: string): Promise<void> {
  await page.waitForFunction(
    ([want, label]) => {
      const el = document.querySelector('[data-testid="terminal-status"]')
      return el?.getAttribute('data-status') === want && (label === null || el.textContent === label)
    },
    [status, text ?? null] as const,
    { timeout: STEP_TIMEOUT },
  )
}

async function waitForScreenText(page: Page, text: string): Promise<void> {
  await page.waitForFunction(
    (want) => document.querySelector('[data-testid="terminal-screen"] .xterm-rows')?.textContent?.includes(want) === true,
    text,
    { timeout: STEP_TIMEOUT },
  )
}

/** The colour of the terminal text "red" and its classes, or null while it is not shown. */
async function redSpan(page: Page): Promise<{ color: string; className: string } | null> {
  return page.evaluate(() => {
    const spans = [...document.querySelectorAll('[data-testid="terminal-screen"] .xterm-rows span')]
    const span = spans.find((s) => s.textContent?.trim() === 'red')
    return span === undefined ? null : { color: getComputedStyle(span).color, className: span.className }
  })
}

function isRedDominant(color: string): boolean {
  const m = /rgba?\((\d+),\s*(\d+),\s*(\d+)/.exec(color)
  if (m === null) return false
  const [r, g, b] = [Number(m[1]), Number(m[2]), Number(m[3])]
  return r > 150 && r > g + 60 && r > b + 60
}

/** Stacks screenshots of the terminal panel into one image, using the browser itself. */
async function stackImages(page: Page, shots: { caption: string; png: Buffer }[], path: string): Promise<void> {
  const html = shots
    .map(
      (s) =>
        `<figure><figcaption>${s.caption}</figcaption><img src="data:image/png;base64,${s.png.toString('base64')}"></figure>`,
    )
    .join('')
  await page.setContent(
    `<link rel="icon" href="data:,"><style>body{margin:0;background:#111418;color:#e3e7ed;font:13px sans-serif}figure{margin:0;padding:8px}img{display:block}</style>${html}`,
  )
  await page.locator('body').screenshot({ path })
}

describe('terminal panel', () => {
  const start = serverPerTest()
  let stateDir: string | null = null

  afterEach(() => {
    if (stateDir !== null) rmSync(stateDir, { recursive: true, force: true })
    stateDir = null
  })

  it('runs a command in colour, takes typed input, and restores the run after a reload', async () => {
    stateDir = freshStateDir()
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ features: { shellEnabled: true } }))
    const s = await start({ stateDir, env: CLEAN_ENV })
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await expectTestId(page, 'conn-state', 'connected')
      await openTerminal(page)
      await page.locator('[data-testid="terminal-command"]').waitFor({ timeout: STEP_TIMEOUT })

      // Colours: the PTY keeps the escape sequences, xterm paints them.
      await runCommand(page, "printf '\\033[31mred\\033[0m\\n'")
      await waitForStatus(page, 'exited', 'Exited with 0')
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('[data-testid="terminal-screen"] .xterm-rows span')].some(
            (s) => s.textContent?.trim() === 'red',
          ),
        undefined,
        { timeout: STEP_TIMEOUT },
      )
      const red = await redSpan(page)
      expect(red, 'a span with the text "red"').not.toBeNull()
      expect(
        red!.className.split(/\s+/).includes('xterm-fg-1') || isRedDominant(red!.color),
        `colour ${red!.color}, classes "${red!.className}"`,
      ).toBe(true)
      expect(await page.locator('[data-testid="terminal-kill"]').isDisabled()).toBe(true)
      const panel = page.locator('[data-testid="terminal-panel"]')
      const redShot = await panel.screenshot()
      await page.screenshot({ path: artifact('terminal-red.png') })

      // Typing: the run gets keyboard focus, keystrokes go to its PTY.
      await runCommand(page, 'read x; echo got:$x')
      await waitForStatus(page, 'running', 'Running…')
      expect(await page.locator('[data-testid="terminal-kill"]').isDisabled()).toBe(false)
      await page.waitForFunction(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true, undefined, {
        timeout: STEP_TIMEOUT,
      })
      await page.keyboard.type('hi')
      await page.keyboard.press('Enter')
      await waitForScreenText(page, 'got:hi')
      await waitForStatus(page, 'exited', 'Exited with 0')
      expect(await page.locator('[data-testid="terminal-run"]').count()).toBe(2)
      const inputShot = await panel.screenshot()
      await page.screenshot({ path: artifact('terminal-input.png') })

      // A reload keeps the dock open and shows the focused run again from its scrollback.
      await page.reload()
      await expectTestId(page, 'conn-state', 'connected')
      await waitForScreenText(page, 'got:hi')
      await waitForStatus(page, 'exited', 'Exited with 0')

      // Focusing the first run again shows its output.
      await page.locator('[data-testid="terminal-run"]', { hasText: 'printf' }).click()
      await page.waitForFunction(
        () =>
          [...document.querySelectorAll('[data-testid="terminal-screen"] .xterm-rows span')].some(
            (s) => s.textContent?.trim() === 'red',
          ) && !document.querySelector('[data-testid="terminal-screen"] .xterm-rows')?.textContent?.includes('got:hi'),
        undefined,
        { timeout: STEP_TIMEOUT },
      )

      // The smallest desktop window still has the whole dock in view.
      await page.setViewportSize({ width: 720, height: 480 })
      await page.waitForFunction(
        () => {
          const rect = (sel: string) => document.querySelector(sel)?.getBoundingClientRect()
          const input = rect('[data-testid="terminal-command"]')
          const screen = rect('[data-testid="terminal-screen"]')
          return input !== undefined && screen !== undefined && input.bottom <= innerHeight && screen.height >= 60
        },
        undefined,
        { timeout: STEP_TIMEOUT },
      )
      await page.screenshot({ path: artifact('terminal-720x480.png') })

      await stackImages(
        page,
        [
          { caption: "printf '\\033[31mred\\033[0m\\n'", png: redShot },
          { caption: 'read x; echo got:$x, then hi⏎ typed into the terminal', png: inputShot },
        ],
        artifact('terminal.png'),
      )
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('asks for the terminal token when the API has a token, and types with it', async () => {
    stateDir = freshStateDir()
    writeFileSync(join(stateDir, 'wisp.json'), JSON.stringify({ features: { shellEnabled: true } }))
    const env = { ...CLEAN_ENV, WISP_API_TOKEN: 'api-secret', WISP_TERMINAL_RUN_TOKEN: 'term-secret' }
    const s = await start({ stateDir, env })
    await withBrowser(async (page) => {
      await page.addInitScript(() => localStorage.setItem('wisp.token', 'api-secret'))
      await page.goto(s.url)
      await expectTestId(page, 'conn-state', 'connected')
      await openTerminal(page)
      await page.locator('[data-testid="terminal-command"]').waitFor({ timeout: STEP_TIMEOUT })

      await runCommand(page, 'read x; echo tok:$x')
      const input = page.locator('[data-testid="terminal-token-input"]')
      await input.waitFor({ timeout: STEP_TIMEOUT })
      await input.fill('wrong')
      await input.press('Enter')
      await page.getByText('The server refused the terminal token').waitFor({ timeout: STEP_TIMEOUT })
      expect(await page.locator('[data-testid="terminal-status"]').count()).toBe(0)

      await input.fill('term-secret')
      await input.press('Enter')
      await waitForStatus(page, 'running')
      expect(await page.inputValue('[data-testid="terminal-command"]')).toBe('')
      await page.waitForFunction(() => document.activeElement?.classList.contains('xterm-helper-textarea') === true, undefined, {
        timeout: STEP_TIMEOUT,
      })
      await page.keyboard.type('ok')
      await page.keyboard.press('Enter')
      await waitForScreenText(page, 'tok:ok')
      await waitForStatus(page, 'exited', 'Exited with 0')
      expect(await page.evaluate(() => sessionStorage.getItem('wisp.terminalToken'))).toBe('term-secret')
      expect(await page.locator('[data-testid="token-form"]').count()).toBe(0)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('says how to turn shell access on when it is off', async () => {
    stateDir = freshStateDir()
    const s = await start({ stateDir, env: CLEAN_ENV })
    await withBrowser(
      async (page) => {
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await openTerminal(page)
        const off = page.locator('[data-testid="terminal-disabled"]')
        await off.waitFor({ timeout: STEP_TIMEOUT })
        const text = (await off.textContent()) ?? ''
        expect(text).toContain('Shell access is off')
        expect(text).toContain('"features": {"shellEnabled": true}')
        expect(text).toContain(join(stateDir!, 'wisp.json'))
        expect(text).toContain('restart Wisp')
        expect(await page.locator('[data-testid="terminal-command"]').count()).toBe(0)
        await page.screenshot({ path: artifact('terminal-disabled.png') })
      },
      { viewport: { width: 720, height: 480 } },
    )
    expect(await s.stop(), s.output()).toBe(0)
  })
})
