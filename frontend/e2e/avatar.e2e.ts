// End to end: the user's own character and the face. The real server (the
// avatar store, /api/avatar, /avatar/user.vrm, /api/expression, the /ws
// frames), the built UI with its lazily loaded three.js and three-vrm,
// headless Chromium with software WebGL. The VRM fixtures are made by
// tools/emotegen (frontend/e2e/fixtures).
//
// Nothing here waits a fixed time: the stage says what it shows
// (data-stage, data-avatar-kind, data-avatar-error, data-emote) and what its
// face did in the last frame drawn (data-expression, data-blinks, data-mouth).

import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, expectTestId, withBrowser } from './browser'
import { decodePng, drawnShare } from './png'
import { serverPerTest } from './server'

const SOFTWARE_WEBGL = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']
const STAGE = '[data-testid="avatar-stage"]'
const PICKER = '[data-testid="emote-picker"]'
const FIXTURES = resolve(import.meta.dirname, 'fixtures')
/** Blinks come every 2–6 s; a busy machine draws late. */
const BLINK_TIMEOUT = 20_000

async function openSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-toggle"]')
  await page.locator('[data-testid="settings-section-avatar"]').waitFor({ timeout: UI_TIMEOUT })
}

async function closeSettings(page: Page): Promise<void> {
  await page.click('[data-testid="settings-close"]')
  await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: UI_TIMEOUT })
}

/** Waits until the stage shows a character of this kind, ready and drawn; fresh: on a canvas made after markCanvas. */
async function waitForCharacter(page: Page, kind: 'builtin' | 'vrm', fresh = false): Promise<void> {
  await page.waitForFunction(
    ({ kind, fresh }) => {
      const stage = document.querySelector<HTMLElement>('[data-testid="avatar-stage"]')
      const canvas = stage?.querySelector<HTMLCanvasElement>('canvas')
      if (stage == null || canvas == null) return false
      if (fresh && canvas.dataset.old === '1') return false
      return stage.dataset.stage === 'ready' && stage.dataset.avatarKind === kind && Number(canvas.dataset.frames) > 0
    },
    { kind, fresh },
    { timeout: UI_TIMEOUT },
  )
}

/** Marks the canvas shown now, so waitForCharacter(…, true) waits for the next one. */
async function markCanvas(page: Page): Promise<void> {
  await page.evaluate(() => {
    const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="avatar-stage"] canvas')
    if (canvas !== null) canvas.dataset.old = '1'
  })
}

async function chooseFile(page: Page, name: string): Promise<void> {
  await page.setInputFiles('[data-testid="avatar-file"]', resolve(FIXTURES, name))
}

/** POST a JSON body from the page, with its token, as another client would. */
async function postJSON(page: Page, path: string, body: object): Promise<number> {
  return page.evaluate(
    async ({ path, body }) => {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('wisp.token') ?? ''}` },
        body: JSON.stringify(body),
      })
      return res.status
    },
    { path, body },
  )
}

async function stageData(page: Page, name: string): Promise<string | null> {
  return page.locator(STAGE).getAttribute(`data-${name}`)
}

describe('your own character (VRM) and the face', () => {
  const start = serverPerTest()

  it('refuses a broken VRM, loads a VRM 1.0 and 0.x, plays emotes and shows expressions and blinks', async () => {
    const s = await start()
    await withBrowser(
      async (page) => {
        const avatarPosts: string[] = []
        page.on('request', (req) => {
          if (req.method() === 'POST' && new URL(req.url()).pathname === '/api/avatar') avatarPosts.push(req.url())
        })
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await waitForCharacter(page, 'builtin')

        // A file that is not a VRM is refused in the page, with why, and never sent.
        await openSettings(page)
        await expectTestId(page, 'avatar-current', 'Wisp shows its built-in character.')
        await chooseFile(page, 'broken.vrm')
        const refusal = page.locator('[data-testid="avatar-settings-error"]')
        await refusal.waitFor({ timeout: UI_TIMEOUT })
        expect(await refusal.textContent()).toMatch(/^This file is not a VRM model: its glTF data is not valid JSON \(.+\)$/)
        expect(avatarPosts).toEqual([])
        expect(await stageData(page, 'avatar-kind')).toBe('builtin')
        await page.locator('[data-testid="settings-section-avatar"]').screenshot({ path: artifact('avatar-settings-refused.png') })

        // The VRM 1.0 fixture: read, uploaded, shown by the stage.
        await markCanvas(page)
        await chooseFile(page, 'wisp-test.vrm')
        await waitForCharacter(page, 'vrm', true)
        expect(avatarPosts.length).toBe(1)
        expect(await page.locator('[data-testid="avatar-settings-error"]').count()).toBe(0)
        expect(await page.locator('[data-testid="avatar-current"]').textContent()).toMatch(/^Wisp shows .+ \(VRM 1.*\)\.$/)
        expect(await stageData(page, 'avatar-error')).toBeNull()
        await closeSettings(page)

        // An emote from the picker plays on the VRM's bones.
        await page.keyboard.press('Control+E')
        await page.locator('[data-testid="emote-option-wave"]').waitFor({ timeout: UI_TIMEOUT })
        await page.keyboard.type('wave')
        await page.keyboard.press('Enter')
        await page.locator(PICKER).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
        await page.waitForSelector(`${STAGE}[data-emote="wave"]`, { timeout: UI_TIMEOUT })
        await page.waitForFunction(
          () => {
            const canvas = document.querySelector<HTMLCanvasElement>('[data-testid="avatar-stage"] canvas')
            return canvas?.dataset.clip === 'wave' && canvas.dataset.clipMode === 'animated' && Number(canvas.dataset.clipTime) > 0.6
          },
          null,
          { timeout: UI_TIMEOUT },
        )
        const png = await page.locator(STAGE).screenshot({ path: artifact('avatar-vrm-wave.png') })
        expect(drawnShare(decodePng(png))).toBeGreaterThan(0.03)
        await page.waitForSelector(`${STAGE}[data-emote="idle"]`, { timeout: UI_TIMEOUT })

        // An expression from the API blends in and fades back to neutral.
        expect(await postJSON(page, '/api/expression', { expression: 'happy', intensity: 1, durationMs: 1500 })).toBe(200)
        await page.waitForSelector(`${STAGE}[data-expression="happy"]`, { timeout: UI_TIMEOUT })
        await page.locator(STAGE).screenshot({ path: artifact('avatar-vrm-happy.png') })
        await page.waitForSelector(`${STAGE}[data-expression="neutral"]`, { timeout: UI_TIMEOUT })

        // The eyes blink by themselves.
        const blinks = Number(await stageData(page, 'blinks'))
        await page.waitForFunction(
          (before) => Number(document.querySelector<HTMLElement>('[data-testid="avatar-stage"]')?.dataset.blinks) > before,
          blinks,
          { timeout: BLINK_TIMEOUT },
        )
        // Nothing speaks: the mouth is shut.
        expect(await stageData(page, 'mouth')).toBe('0.00')

        // A second window follows the character chosen in the first (avatar-changed).
        const other = await page.context().newPage()
        await other.goto(s.openURL)
        await waitForCharacter(other, 'vrm')

        // The VRM 0.x fixture loads too (turned to face the camera).
        await openSettings(page)
        await markCanvas(page)
        await markCanvas(other)
        await chooseFile(page, 'wisp-test-0x.vrm')
        await waitForCharacter(page, 'vrm', true)
        await waitForCharacter(other, 'vrm', true)
        expect(await page.locator('[data-testid="avatar-current"]').textContent()).toMatch(/\(VRM 0\.x/)
        expect(await stageData(page, 'avatar-error')).toBeNull()
        await closeSettings(page)
        const png0x = await page.locator(STAGE).screenshot({ path: artifact('avatar-vrm0.png') })
        expect(drawnShare(decodePng(png0x))).toBeGreaterThan(0.03)

        // A VRM the page cannot load (here: the server's file swapped for a broken one on the way)
        // leaves the built-in character on the stage, which says why.
        const third = await page.context().newPage()
        await third.route('**/avatar/user.vrm*', (route) =>
          route.fulfill({ status: 200, contentType: 'model/gltf-binary', body: readFileSync(resolve(FIXTURES, 'broken.vrm')) }),
        )
        await third.goto(s.openURL)
        await waitForCharacter(third, 'builtin')
        expect(await third.locator(STAGE).getAttribute('data-avatar-error')).toMatch(/^This VRM could not be loaded: .+/)
        expect(await third.locator('.avatar-error').textContent()).toMatch(/^This VRM could not be loaded: /)
        await third.locator(STAGE).screenshot({ path: artifact('avatar-vrm-failed.png') })
        await third.close()

        // Back to the built-in character, in both windows.
        await openSettings(page)
        await markCanvas(page)
        await markCanvas(other)
        await page.click('[data-testid="avatar-builtin"]')
        await waitForCharacter(page, 'builtin', true)
        await waitForCharacter(other, 'builtin', true)
        await expectTestId(page, 'avatar-current', 'Wisp shows its built-in character.')
        await other.close()
      },
      { args: SOFTWARE_WEBGL },
    )
  })
})
