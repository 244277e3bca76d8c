// End to end emotes: the real server (catalog, GLB files, /ws emote frames),
// the built UI with its lazily loaded three.js stage, headless Chromium with
// software WebGL (SwiftShader), without WebGL, and with reduced motion.
// Needs `npm run build` and the server binary (WISP_BIN, default ../build/bin/wisp-serve).
//
// Nothing here waits a fixed time: the stage says which emote plays
// (data-emote, data-emote-seq) and its canvas what the last frame drawn shows
// (data-clip, data-clip-seq, data-clip-time, data-clip-mode, data-frames), so
// a screenshot is taken when the page says the pose it needs is on screen.

import { describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, expectTestId, withBrowser } from './browser'
import { decodePng, drawnShare } from './png'
import { serverPerTest } from './server'

const SOFTWARE_WEBGL = ['--use-angle=swiftshader', '--enable-unsafe-swiftshader']
const NO_WEBGL = ['--disable-webgl', '--disable-3d-apis']
const STAGE = '[data-testid="avatar-stage"]'
const PICKER = '[data-testid="emote-picker"]'
/** wave lasts 2.5 s; allow for a slow machine. */
const EMOTE_TIMEOUT = 10_000
/**
 * Clip times (s) at which wave's arm is fully up: raised by 0.45 s, lowered from
 * 2.05 s (tools/emotegen/clips_greeting.go), after the 0.3 s crossfade from idle.
 */
const WAVE_ARM_UP = { from: 0.5, to: 2.0 }
/** How many plays of wave a capture may take: on a busy machine one can move on before its screenshot is confirmed. */
const CAPTURE_ATTEMPTS = 5

async function waitForStage(page: Page, stage: string): Promise<void> {
  await page.waitForSelector(`${STAGE}[data-stage="${stage}"]`, { timeout: UI_TIMEOUT })
}

async function waitForEmote(page: Page, emote: string, timeout = EMOTE_TIMEOUT): Promise<void> {
  await page.waitForSelector(`${STAGE}[data-emote="${emote}"]`, { timeout })
}

/** What the stage plays and what the last frame its canvas drew shows. */
interface StageFrame {
  /** The playback machine: the emote playing now and its request number. */
  emote: string
  emoteSeq: number
  /** The last frame drawn: its clip, the request it answers, seconds into the clip, still or animated. */
  clip: string
  clipSeq: number
  time: number
  duration: number
  mode: string
  /** Frames drawn so far. */
  frames: number
}

interface FrameWanted {
  /** This emote plays, and the last frame drawn shows its clip for the same request. */
  emote: string
  mode?: 'animated' | 'still'
  minTime?: number
  maxTime?: number
  /** Whole plays of the clip behind it (a loop's time grows past its duration). */
  minLoops?: number
}

/**
 * Runs in the page: the stage's frame, or (given a want) the frame only when it
 * matches, else null. Self-contained, as Playwright sends its source.
 */
function stageFrame(want: FrameWanted | null): StageFrame | null {
  const stage = document.querySelector<HTMLElement>('[data-testid="avatar-stage"]')
  const canvas = stage?.querySelector<HTMLCanvasElement>('canvas')
  if (stage == null || canvas == null || canvas.dataset.clip === undefined) return null
  const frame: StageFrame = {
    emote: stage.dataset.emote ?? '',
    emoteSeq: Number(stage.dataset.emoteSeq),
    clip: canvas.dataset.clip,
    clipSeq: Number(canvas.dataset.clipSeq),
    time: Number(canvas.dataset.clipTime),
    duration: Number(canvas.dataset.clipDuration),
    mode: canvas.dataset.clipMode ?? '',
    frames: Number(canvas.dataset.frames),
  }
  if (want === null) return frame
  const matches =
    frame.emote === want.emote &&
    frame.clip === want.emote &&
    frame.clipSeq === frame.emoteSeq &&
    (want.mode === undefined || frame.mode === want.mode) &&
    frame.time >= (want.minTime ?? 0) &&
    frame.time <= (want.maxTime ?? Number.POSITIVE_INFINITY) &&
    frame.time >= (want.minLoops ?? 0) * frame.duration
  return matches ? frame : null
}

async function readFrame(page: Page): Promise<StageFrame | null> {
  return page.evaluate(stageFrame, null)
}

/** Waits until the canvas has drawn a frame as wanted, and returns it. */
async function waitForFrame(page: Page, want: FrameWanted, timeout = EMOTE_TIMEOUT): Promise<StageFrame> {
  const handle = await page.waitForFunction(stageFrame, want, { timeout })
  const frame = (await handle.jsonValue()) as StageFrame | null
  await handle.dispose()
  if (frame === null) throw new Error(`no frame ${JSON.stringify(want)}`)
  return frame
}

/** Waits until the browser has produced n more animation frames. */
async function animationFrames(page: Page, n: number): Promise<void> {
  await page.evaluate(
    (count) =>
      new Promise<void>((done) => {
        let left = count
        const tick = () => (--left <= 0 ? done() : requestAnimationFrame(tick))
        requestAnimationFrame(tick)
      }),
    n,
  )
}

/** Plays an emote from the Ctrl+E picker, typing its id once the picker lists it. */
async function pickEmote(page: Page, name: string): Promise<void> {
  await page.keyboard.press('Control+E')
  await page.locator(`[data-testid="emote-option-${name}"]`).waitFor({ timeout: UI_TIMEOUT })
  await page.keyboard.type(name)
  await page.keyboard.press('Enter')
  await page.locator(PICKER).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
}

/**
 * A screenshot of the stage with wave's arm up: taken once a frame inside
 * WAVE_ARM_UP is drawn, and kept when, after it, the same play still shows a
 * frame inside it (frames of one play only move forward, so the one captured
 * lies between). On a busy machine the wave can move past them while the
 * screenshot is taken; then it plays again, through `replay`.
 */
async function screenshotArmUp(page: Page, path: string, replay: () => Promise<void>): Promise<Buffer> {
  const stage = page.locator(STAGE)
  const seen: (StageFrame | null)[] = []
  for (let attempt = 1; attempt <= CAPTURE_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      await waitForEmote(page, 'idle')
      await replay()
    }
    const before = await waitForFrame(page, {
      emote: 'wave',
      mode: 'animated',
      minTime: WAVE_ARM_UP.from,
      maxTime: WAVE_ARM_UP.to,
    })
    const png = await stage.screenshot({ path })
    const after = await readFrame(page)
    seen.push(before, after)
    if (
      after !== null &&
      after.emote === 'wave' &&
      after.clip === 'wave' &&
      after.clipSeq === before.clipSeq &&
      after.emoteSeq === before.emoteSeq &&
      after.time <= WAVE_ARM_UP.to
    ) {
      return png
    }
    const frames = JSON.stringify({ before, after })
    console.warn(`wave left its arm-up frames before its screenshot was confirmed (play ${attempt}): ${frames}`)
  }
  throw new Error(`no screenshot inside wave's arm-up frames in ${CAPTURE_ATTEMPTS} plays: ${JSON.stringify(seen)}`)
}

async function captionText(page: Page): Promise<{ text: string; visible: boolean }> {
  return page.evaluate(() => {
    const el = document.querySelector('[data-testid="avatar-caption"]')
    if (el === null) return { text: '', visible: false }
    const style = getComputedStyle(el)
    return { text: el.textContent ?? '', visible: style.visibility === 'visible' && style.display !== 'none' }
  })
}

/** POST /api/emote from the page, as another client (the agent, say) would, with the page's token. */
async function postEmote(page: Page, emoteId: string): Promise<number> {
  return page.evaluate(async (id) => {
    const res = await fetch('/api/emote', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${localStorage.getItem('wisp.token') ?? ''}` },
      body: JSON.stringify({ emoteId: id }),
    })
    return res.status
  }, emoteId)
}

describe('avatar stage and emote picker', () => {
  const start = serverPerTest()

  it('renders the avatar with WebGL and plays wave from the Ctrl+E picker', async () => {
    const s = await start()
    await withBrowser(
      async (page) => {
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await waitForStage(page, 'ready')
        const stage = page.locator(STAGE)
        expect(await stage.getAttribute('data-emote')).toBe('idle')
        await waitForFrame(page, { emote: 'idle', mode: 'animated' })

        // Visible by default at 1280x800, at the top of the right-hand column.
        const box = await stage.boundingBox()
        expect(box).not.toBeNull()
        expect(box!.height).toBeGreaterThanOrEqual(250)
        expect(box!.width).toBeGreaterThanOrEqual(300)
        expect(box!.x + box!.width).toBeLessThanOrEqual(1280)
        expect(box!.y + box!.height).toBeLessThanOrEqual(800)
        expect(drawnShare(decodePng(await stage.screenshot()))).toBeGreaterThan(0.08)

        await page.keyboard.press('Control+E')
        await page.locator(PICKER).waitFor({ timeout: UI_TIMEOUT })
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('emote-filter')
        // The picker loads the catalog when it opens: read the groups once they are listed.
        await page.locator('[data-testid="emote-option-wave"]').waitFor({ timeout: UI_TIMEOUT })
        const headings = await page.locator(`${PICKER} .picker-group`).allTextContents()
        expect(headings.slice(0, 6)).toEqual(['Greeting', 'Emotion', 'Dance', 'Combat', 'Idle', 'Movement'])

        await page.keyboard.type('wave')
        await page.keyboard.press('Enter')
        await page.locator(PICKER).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
        await waitForEmote(page, 'wave')
        expect(await captionText(page)).toEqual({ text: 'Wave', visible: true })

        // Mid-wave: the arm is up, in the frame the page says it drew.
        const png = await screenshotArmUp(page, artifact('emote-wave.png'), () => pickEmote(page, 'wave'))
        expect(drawnShare(decodePng(png))).toBeGreaterThan(0.08)

        await waitForEmote(page, 'idle')
        expect((await captionText(page)).visible).toBe(false)
        await waitForFrame(page, { emote: 'idle', mode: 'animated' })

        // A looping emote stays until Stop returns everyone to idle: the stage plays it
        // past the clip's length and the emote is still on.
        await page.keyboard.press('Control+E')
        await page.locator('[data-testid="emote-option-dance-happy"]').click()
        await waitForEmote(page, 'dance-happy')
        const looped = await waitForFrame(page, { emote: 'dance-happy', mode: 'animated', minLoops: 1 }, UI_TIMEOUT)
        await stage.screenshot({ path: artifact('emote-dance.png') })
        expect(await stage.getAttribute('data-emote')).toBe('dance-happy')
        expect(await stage.getAttribute('data-emote-seq')).toBe(String(looped.emoteSeq))
        await page.keyboard.press('Control+E')
        await page.locator('[data-testid="emote-stop"]').click()
        await waitForEmote(page, 'idle')
        await waitForFrame(page, { emote: 'idle', mode: 'animated' })

        // The header's Avatar toggle removes the stage (and its WebGL context), and is remembered.
        await page.click('[data-testid="avatar-toggle"]')
        expect(await page.locator(STAGE).count()).toBe(0)
        await page.reload()
        await expectTestId(page, 'conn-state', 'connected')
        expect(await page.getAttribute('[data-testid="avatar-toggle"]', 'aria-pressed')).toBe('false')
        expect(await page.locator(STAGE).count()).toBe(0)
      },
      { args: SOFTWARE_WEBGL },
    )
  })

  it('falls back to a still figure without WebGL and still follows emotes', async () => {
    const s = await start()
    await withBrowser(
      async (page) => {
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await waitForStage(page, 'fallback')
        const stage = page.locator(STAGE)
        expect(await stage.textContent()).toContain('3D avatar unavailable — this browser has WebGL turned off')
        expect(await stage.locator('canvas').count()).toBe(0)

        expect(await postEmote(page, 'wave')).toBe(200)
        await waitForEmote(page, 'wave')
        expect(await captionText(page)).toEqual({ text: 'Wave', visible: true })
        await stage.screenshot({ path: artifact('emote-no-webgl.png') })
        await waitForEmote(page, 'idle')

        // three.js was never downloaded.
        const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name))
        expect(scripts.some((name) => name.includes('AvatarCanvas'))).toBe(false)
      },
      { args: NO_WEBGL },
    )
  })

  it('shows still poses and a caption with reduced motion, and server errors in the picker', async () => {
    const s = await start()
    await withBrowser(
      async (page) => {
        await page.emulateMedia({ reducedMotion: 'reduce' })
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await waitForStage(page, 'ready')

        // The server's error text shows in the picker, which stays open.
        await page.route('**/api/emote', (route) =>
          route.fulfill({ status: 400, contentType: 'application/json', body: '{"error":"Unknown emote: wave"}' }),
        )
        await page.click('[data-testid="emote-button"]')
        await page.locator('[data-testid="emote-option-wave"]').click()
        await expectTestId(page, 'emote-error', 'Unknown emote: wave')
        await page.unroute('**/api/emote')

        await page.locator('[data-testid="emote-option-wave"]').click()
        await page.locator(PICKER).waitFor({ state: 'detached', timeout: UI_TIMEOUT })
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('emote-button')
        await waitForEmote(page, 'wave')
        expect(await captionText(page)).toEqual({ text: 'Wave', visible: true })

        // A still key pose: nothing moves while the wave lasts. Both screenshots are
        // taken while the page says the same still frame is shown, with browser frames
        // in between in which a moving avatar would have been drawn again.
        const [first, second] = await screenshotsOfOneStillPose(page, artifact('emote-wave-reduced-motion.png'))
        expect(drawnShare(decodePng(first))).toBeGreaterThan(0.08)
        expect(second.equals(first)).toBe(true)

        await waitForEmote(page, 'idle')
        expect((await captionText(page)).visible).toBe(false)

        // Esc closes the picker and gives focus back.
        await page.click('[data-testid="emote-button"]')
        await page.locator(PICKER).waitFor()
        await page.keyboard.press('Escape')
        await page.locator(PICKER).waitFor({ state: 'detached' })
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('emote-button')
      },
      { args: SOFTWARE_WEBGL },
    )
  })
})

/**
 * Two screenshots of the stage while it shows wave's still pose, with 10 browser
 * frames between them; kept when the page says that very frame is still the
 * last one drawn afterwards. A busy machine can let the wave end first; then
 * it plays again (POST /api/emote).
 */
async function screenshotsOfOneStillPose(page: Page, path: string): Promise<[Buffer, Buffer]> {
  const stage = page.locator(STAGE)
  const seen: (StageFrame | null)[] = []
  for (let attempt = 1; attempt <= CAPTURE_ATTEMPTS; attempt++) {
    if (attempt > 1) {
      await waitForEmote(page, 'idle')
      expect(await postEmote(page, 'wave')).toBe(200)
    }
    const pose = await waitForFrame(page, { emote: 'wave', mode: 'still' })
    const first = await stage.screenshot({ path })
    await animationFrames(page, 10)
    const second = await stage.screenshot()
    const after = await readFrame(page)
    seen.push(pose, after)
    if (after !== null && after.emote === pose.emote && after.emoteSeq === pose.emoteSeq) {
      // Still the same wave: the stage drew nothing new.
      expect(after).toEqual(pose)
      return [first, second]
    }
    console.warn(`wave ended during its still-pose screenshots (play ${attempt}): ${JSON.stringify({ pose, after })}`)
  }
  throw new Error(`the wave ended during each of ${CAPTURE_ATTEMPTS} still-pose captures: ${JSON.stringify(seen)}`)
}
