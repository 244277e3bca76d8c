// End to end voice in the window: the real server binary with the fake LLM
// (which also serves the fake /v1/audio/speech and /v1/audio/transcriptions),
// the built UI, headless Chromium whose fake microphone plays a WAV made by
// fixtures/makeSpeechWav.mjs (silence, a voiced sound in syllables, silence).
// Push-to-talk with the mic button and with Ctrl+Space puts the fake
// transcript in the composer (and sends it with auto-send), and so does an
// utterance hands-free mode cuts by itself; the mic's track is
// stopped when recording ends; a spoken reply shows data-speech=playing with
// its clauses in order and idle after; Stop silences it at once; Settings →
// Voice's Test speaks. Needs `npm run build`, the server binary (WISP_BIN) and
// the fake LLM (WISP_FAKELLM_BIN). Nothing waits a fixed time: the composer
// says what the speech and the mic do (data-speech, data-recording, the level).

import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, withBrowser } from './browser'
import { fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { serverPerTest, type RunningServer } from './server'

const STEP_TIMEOUT = 30_000
const TRANSCRIPT = 'What is the weather like today?'
const GENERATOR = resolve(import.meta.dirname, 'fixtures/makeSpeechWav.mjs')
const WAV = artifact('fake-mic-speech.wav')
const VRM = resolve(import.meta.dirname, 'fixtures/wisp-test.vrm')
const STAGE = '[data-testid="avatar-stage"]'
const FORM = '[data-testid="composer-form"]'
const USER = '[data-testid="message"][data-role="user"]'

const mediaArgs = () => [
  '--use-fake-ui-for-media-stream',
  '--use-fake-device-for-media-stream',
  `--use-file-for-fake-audio-capture=${WAV}%noloop`,
  '--autoplay-policy=no-user-gesture-required',
]

/** Keeps every track getUserMedia hands out, so the test can see that recording's end stopped it. */
function trackTracks(): void {
  const w = window as unknown as { __wispTracks: MediaStreamTrack[] }
  w.__wispTracks = []
  const media = navigator.mediaDevices
  const get = media.getUserMedia.bind(media)
  media.getUserMedia = async (c) => {
    const stream = await get(c)
    w.__wispTracks.push(...stream.getTracks())
    return stream
  }
}

/**
 * Notes every clause index the composer shows as playing, in order, and the widest
 * the avatar's mouth opened (the stage's data-mouth, the aa weight of the frame drawn)
 * while speech played.
 */
function watchSpeech(): void {
  const w = window as unknown as { __wispSpeech: string[]; __wispMouthMax: number }
  w.__wispSpeech = []
  w.__wispMouthMax = 0
  const seen = () => {
    const form = document.querySelector<HTMLElement>('[data-testid="composer-form"]')
    if (form === null) return
    const entry = `${form.dataset.speech}:${form.dataset.speechIndex ?? ''}`
    if (w.__wispSpeech.at(-1) !== entry) w.__wispSpeech.push(entry)
    const stage = document.querySelector<HTMLElement>('[data-testid="avatar-stage"]')
    if (form.dataset.speech === 'playing' && stage !== null) {
      w.__wispMouthMax = Math.max(w.__wispMouthMax, Number(stage.dataset.mouth ?? 0))
    }
  }
  new MutationObserver(seen).observe(document, {
    subtree: true,
    attributes: true,
    attributeFilter: ['data-speech', 'data-speech-index', 'data-mouth'],
  })
}

/** Makes the server's character the VRM 1.0 fixture, as Settings → Avatar does. */
async function useVRM(s: RunningServer): Promise<void> {
  const res = await fetch(`${s.url}/api/avatar?name=wisp-test.vrm`, {
    method: 'POST',
    headers: { ...s.auth, 'Content-Type': 'model/gltf-binary', 'X-Wisp-Upload': '1' },
    body: readFileSync(VRM),
  })
  if (res.status !== 201) throw new Error(`POST /api/avatar: ${res.status} ${await res.text()}`)
}

async function putConfig(s: RunningServer, patch: unknown): Promise<void> {
  const res = await fetch(`${s.url}/api/config`, {
    method: 'PUT',
    headers: { ...s.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(patch),
  })
  if (!res.ok) throw new Error(`PUT /api/config: ${res.status} ${await res.text()}`)
}

/** Waits until the fake mic has played its voiced part and gone quiet again. */
async function waitForUtterance(page: Page): Promise<void> {
  await page.waitForFunction(
    () => {
      const fill = document.querySelector<HTMLElement>('[data-testid="mic-level"]')
      const m = fill === null ? null : /scaleX\(([\d.]+)\)/.exec(fill.style.transform)
      return m !== null && Number(m[1]) > 0.2
    },
    undefined,
    { timeout: STEP_TIMEOUT },
  )
  await page.waitForFunction(
    () => {
      const fill = document.querySelector<HTMLElement>('[data-testid="mic-level"]')
      const m = fill === null ? null : /scaleX\(([\d.]+)\)/.exec(fill.style.transform)
      return m !== null && Number(m[1]) < 0.05
    },
    undefined,
    { timeout: STEP_TIMEOUT },
  )
}

/** Waits until the message box holds want. */
async function waitForComposer(page: Page, want: string): Promise<void> {
  await page.waitForFunction(
    (w) => (document.querySelector('[data-testid="composer"]') as HTMLTextAreaElement | null)?.value === w,
    want,
    { timeout: STEP_TIMEOUT },
  )
}

async function composerText(page: Page): Promise<string> {
  return page.locator('[data-testid="composer"]').inputValue()
}

async function allTracksEnded(page: Page): Promise<boolean> {
  return page.evaluate(() => {
    const tracks = (window as unknown as { __wispTracks: MediaStreamTrack[] }).__wispTracks
    return tracks.length > 0 && tracks.every((t) => t.readyState === 'ended')
  })
}

describe('voice in the window', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    execFileSync(process.execPath, [GENERATOR, WAV])
  })
  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  /** The server with the fake model and the fake audio servers, and the voice settings given. */
  async function voiceServer(voice: Record<string, unknown>, script?: unknown[]): Promise<RunningServer> {
    llm = await startFakeLLM(script === undefined ? { delay: '5ms' } : { delay: '5ms', script })
    const s = await start({ env: fakeModelEnv(llm.url) })
    await putConfig(s, { voice: { tts: { baseURL: `${llm.url}/v1` }, stt: { baseURL: `${llm.url}/v1` }, ...voice } })
    return s
  }

  async function open(page: Page, s: RunningServer): Promise<void> {
    await page.addInitScript(trackTracks)
    await page.addInitScript(watchSpeech)
    await page.goto(s.openURL)
    await page.locator('[data-testid="mic"]').waitFor({ timeout: UI_TIMEOUT })
  }

  it('push-to-talk with the mic button puts the transcript in the composer; the mic is on only while recording', async () => {
    const s = await voiceServer({})
    await withBrowser(
      async (page) => {
        await open(page, s)
        expect(await page.locator('[data-testid="mic-indicator"]').count()).toBe(0)
        await page.click('[data-testid="mic"]')
        await page.locator('[data-testid="mic-area"][data-recording="push"]').waitFor({ timeout: STEP_TIMEOUT })
        await page.locator('[data-testid="mic-indicator"]').waitFor({ timeout: STEP_TIMEOUT })
        await page.waitForFunction(
          () => {
            const fill = document.querySelector<HTMLElement>('[data-testid="mic-level"]')
            const m = fill === null ? null : /scaleX\(([\d.]+)\)/.exec(fill.style.transform)
            return m !== null && Number(m[1]) > 0.2
          },
          undefined,
          { timeout: STEP_TIMEOUT },
        )
        await page.locator(FORM).screenshot({ path: artifact('voice-recording.png') })
        expect(await allTracksEnded(page)).toBe(false)
        await waitForUtterance(page)
        await page.click('[data-testid="mic"]')
        await page.locator('[data-testid="mic-area"][data-recording="off"]').waitFor({ timeout: STEP_TIMEOUT })
        expect(await allTracksEnded(page)).toBe(true)
        await waitForComposer(page, TRANSCRIPT)
        expect(await page.locator('[data-testid="mic-indicator"]').count()).toBe(0)
        // Not sent: auto-send is off.
        expect(await page.locator(USER).count()).toBe(0)
      },
      { args: mediaArgs() },
    )
  })

  it('holding Ctrl+Space records, releasing transcribes, and no space is typed', async () => {
    const s = await voiceServer({})
    await withBrowser(
      async (page) => {
        await open(page, s)
        await page.locator('[data-testid="composer"]').click()
        await page.keyboard.down('Control')
        await page.keyboard.down('Space')
        await page.locator('[data-testid="mic-area"][data-recording="push"]').waitFor({ timeout: STEP_TIMEOUT })
        await waitForUtterance(page)
        await page.keyboard.up('Space')
        await page.keyboard.up('Control')
        await page.locator('[data-testid="mic-area"][data-recording="off"]').waitFor({ timeout: STEP_TIMEOUT })
        await waitForComposer(page, TRANSCRIPT)
        expect(await composerText(page)).toBe(TRANSCRIPT)
        expect(await allTracksEnded(page)).toBe(true)
      },
      { args: mediaArgs() },
    )
  })

  it('hands-free hears the utterance end by itself and transcribes it; the switch turns the mic off', async () => {
    const s = await voiceServer({})
    await withBrowser(
      async (page) => {
        await open(page, s)
        await page.click('[data-testid="hands-free"]')
        await page.locator('[data-testid="mic-area"][data-recording="hands-free"]').waitFor({ timeout: STEP_TIMEOUT })
        await waitForComposer(page, TRANSCRIPT)
        // Still listening for the next utterance.
        expect(await page.locator('[data-testid="mic-area"]').getAttribute('data-recording')).toBe('hands-free')
        expect(await allTracksEnded(page)).toBe(false)
        await page.click('[data-testid="hands-free"]')
        await page.locator('[data-testid="mic-area"][data-recording="off"]').waitFor({ timeout: STEP_TIMEOUT })
        expect(await allTracksEnded(page)).toBe(true)
      },
      { args: mediaArgs() },
    )
  })

  it('auto-send sends what was said; the reply is spoken clause by clause, in order, then idle; a VRM character mouths it', async () => {
    // The reply (and, if the title asks after it, the title): three sentences, three clauses.
    const reply = { text: ['Sunny and warm. ', 'A light breeze from the west. ', 'No rain until Sunday.'] }
    const s = await voiceServer({ autoSend: true, speakReplies: true }, [reply, reply])
    await useVRM(s)
    await withBrowser(
      async (page) => {
        await open(page, s)
        await page.locator(`${STAGE}[data-stage="ready"][data-avatar-kind="vrm"]`).waitFor({ timeout: UI_TIMEOUT })
        expect(await page.locator(STAGE).getAttribute('data-mouth')).toBe('0.00')
        await page.click('[data-testid="mic"]')
        await waitForUtterance(page)
        await page.click('[data-testid="mic"]')
        await page.locator(USER).filter({ hasText: TRANSCRIPT }).waitFor({ timeout: STEP_TIMEOUT })
        await page.locator(`${FORM}[data-speech="playing"]`).waitFor({ timeout: STEP_TIMEOUT })
        await page.locator(`${FORM}[data-speech="idle"]`).waitFor({ timeout: STEP_TIMEOUT * 2 })
        const seen = await page.evaluate(() => (window as unknown as { __wispSpeech: string[] }).__wispSpeech)
        const playing = seen.filter((e) => e.startsWith('playing:')).map((e) => Number(e.slice('playing:'.length)))
        // Every clause played once, in order.
        expect(playing).toEqual([0, 1, 2])
        expect(seen.at(-1)).toBe('idle:')
        // The VRM's mouth followed the audio played (its loudness), wide open at
        // some point, and closed once it ended.
        const mouthMax = await page.evaluate(() => (window as unknown as { __wispMouthMax: number }).__wispMouthMax)
        expect(mouthMax).toBeGreaterThan(0.3)
        await page.locator(`${STAGE}[data-mouth="0.00"]`).waitFor({ timeout: STEP_TIMEOUT })
      },
      { args: mediaArgs() },
    )
  })

  it('Stop silences a long reply at once, and Esc too', async () => {
    const s = await voiceServer({ speakReplies: true })
    const long = Array.from({ length: 40 }, (_, i) => `This is sentence number ${i + 1} of a long answer.`).join(' ')
    await withBrowser(
      async (page) => {
        await open(page, s)
        for (const how of ['stop', 'escape'] as const) {
          await page.locator('[data-testid="composer"]').fill(long)
          await page.keyboard.press('Enter')
          await page.locator(`${FORM}[data-speech="playing"]`).waitFor({ timeout: STEP_TIMEOUT })
          if (how === 'stop') await page.click('[data-testid="stop"]')
          else await page.locator('[data-testid="composer"]').press('Escape')
          await page.locator(`${FORM}[data-speech="idle"]`).waitFor({ timeout: 2_000 })
          // It stays quiet: the rest of that reply is not spoken.
          await page.locator('[data-testid="send"]').waitFor({ timeout: STEP_TIMEOUT })
          expect(await page.locator(FORM).getAttribute('data-speech')).toBe('idle')
        }
      },
      { args: mediaArgs() },
    )
  })

  it('Settings → Voice: Test speaks the test sentence, and a key is saved write-only', async () => {
    const s = await voiceServer({})
    await withBrowser(
      async (page) => {
        await open(page, s)
        await page.click('[data-testid="settings-toggle"]')
        const test = page.locator('[data-testid="voice-test"]')
        await test.waitFor({ timeout: UI_TIMEOUT })
        expect(await page.locator('[data-testid="voice-tts-baseURL"]').inputValue()).toBe(`${llm?.url}/v1`)
        await page.locator('[data-testid="settings-section-voice"]').screenshot({ path: artifact('voice-settings.png') })
        await test.click()
        await page.locator('[data-testid="voice-test"][data-speech="playing"]').waitFor({ timeout: STEP_TIMEOUT })
        await page.locator('[data-testid="voice-test"][data-speech="idle"]').waitFor({ timeout: STEP_TIMEOUT })

        // The speech key is saved like the model's: write-only, reported as saved.
        await page.locator('[data-testid="voice-tts-apiKey"]').fill('sk-voice-test')
        await page.click('[data-testid="voice-save"]')
        await page.locator('[data-testid="voice-note"]').filter({ hasText: 'Saved.' }).waitFor({ timeout: STEP_TIMEOUT })
        await page.locator('[data-testid="settings-section-voice"]').getByText('A key is saved.').waitFor({ timeout: STEP_TIMEOUT })
        expect(await page.locator('[data-testid="voice-tts-apiKey"]').inputValue()).toBe('')
        const snap = (await (await fetch(`${s.url}/api/config`, { headers: s.auth })).json()) as { secrets: Record<string, boolean>; config: { voice: { tts: Record<string, unknown> } } }
        expect(snap.secrets['voice.tts.apiKey']).toBe(true)
        expect(snap.config.voice.tts.apiKey).toBeUndefined()
      },
      { args: mediaArgs() },
    )
  })
})
