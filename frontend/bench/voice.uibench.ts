// The browser benchmark of Wisp's voice: how long after a reply's first token its
// first clause is heard, against the speech server's own time to first byte for
// that clause; and how long after push-to-talk is released the transcript is in
// the composer, against the transcription server's own time for the same audio.
// Not a test: run it with
//
//   make bench-ui        (or: npx vitest run --config vitest.uibench.config.ts bench/voice.uibench.ts)
//
// after `make build-serve fakellm`. One `wisp serve` with the fake model (which also
// serves the fake /v1/audio/speech and /v1/audio/transcriptions), one headless
// Chromium with a fake microphone playing the WAV of e2e/fixtures/makeSpeechWav.mjs;
// the floors are direct requests from Node to the same fake servers in the same
// round. Writes the section between <!-- bench:voice:begin --> and
// <!-- bench:voice:end --> of BENCHMARKS.md.

import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { artifact, withBrowser } from '../e2e/browser'
import { fakeLLMBinary, fakeModelEnv } from '../e2e/fakellm'
import { spawnUntilReady, type RunningProcess } from '../e2e/process'
import { requireBuild, startServer, type RunningServer } from '../e2e/server'
import { AVATAR_DRAWN, measuredWith, median, percentile } from './pagekit'
import { replaceSection } from './section'

const ROUNDS = Number(process.env.UIBENCH_VOICE_ROUNDS ?? 15)
const BENCHMARKS = resolve(import.meta.dirname, '../../BENCHMARKS.md')
const GENERATOR = resolve(import.meta.dirname, '../e2e/fixtures/makeSpeechWav.mjs')

/** The fake speech server's delay before its first byte: a local TTS server's time to start (say, Kokoro on a GPU). */
const SPEECH_DELAY_MS = 150
/** The fake model's pause between streamed words: about 50 words a second. */
const WORD_DELAY_MS = 20
/** The message sent each round; the fake model answers "You said: " and it, word by word. */
const MESSAGE = 'Sunny and warm today, with a light breeze from the west. No rain until Sunday, or so they say.'
const TRANSCRIPT = 'What is the weather like today?'
/** The target: Wisp's time ≤ 1.2 × the floor + 50 ms. */
const TARGET_RATIO = 1.2
const TARGET_SLACK_MS = 50

const FORM = '[data-testid="composer-form"]'
const COMPOSER = '[data-testid="composer"]'
const MIC = '[data-testid="mic"]'

interface SpeechSample {
  /** wisp:first-token → wisp:speech-start, in ms. */
  wispMs: number
  /** The TTS server's own time to first byte for the same first clause, from Node. */
  floorMs: number
  /** wisp:first-token → the page's POST /api/speech for the first clause began (the clause complete, its frame in the page). */
  clauseMs: number
  /** That request → its first byte (Wisp's relay and the TTS server's time to first byte). */
  firstByteMs: number
  /** First byte → last byte of the clause's WAV. */
  downloadMs: number
  /** Last byte → playback started (decodeAudioData, queue, start). */
  decodeMs: number
  clause: string
}

interface ListenSample {
  /** The click that stops recording → the transcript is the composer's value. */
  wispMs: number
  /** The STT server's own time for the same WAV bytes, from Node: request → the whole answer. */
  floorMs: number
  /** The click → the page's POST /api/transcriptions began (capture stopped, WAV encoded). */
  encodeMs: number
  /** That request → its whole answer (Wisp's relay and the STT server). */
  requestMs: number
  /** The answer → the composer's value set. */
  uiMs: number
  wavBytes: number
}

/**
 * Runs before any page script: notes when the composer's value becomes the
 * transcript and every mic click, and keeps the audio the page posts to
 * /api/transcriptions (a Blob body, which the browser's request events do not carry).
 */
const WATCH = (transcript: string) => `
  window.__voice = { clicks: [], valueAt: 0, audio: null }
  const pageFetch = window.fetch.bind(window)
  window.fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url
    if (url.endsWith('/api/transcriptions') && init && init.body instanceof Blob) window.__voice.audio = init.body
    return pageFetch(input, init)
  }
  const desc = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')
  Object.defineProperty(HTMLTextAreaElement.prototype, 'value', {
    configurable: true,
    enumerable: desc.enumerable,
    get() { return desc.get.call(this) },
    set(v) {
      desc.set.call(this, v)
      if (v === ${JSON.stringify(transcript)} && this.matches('[data-testid="composer"]') && window.__voice.valueAt === 0) {
        window.__voice.valueAt = performance.now()
      }
    },
  })
  document.addEventListener('click', (e) => {
    const mic = e.target instanceof Element ? e.target.closest('[data-testid="mic"]') : null
    if (mic !== null) window.__voice.clicks.push(performance.now())
  }, { capture: true })
`

async function putConfig(s: RunningServer, patch: unknown): Promise<void> {
  const res = await fetch(`${s.url}/api/config`, {
    method: 'PUT',
    headers: { ...s.auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(patch),
  })
  if (!res.ok) throw new Error(`PUT /api/config: ${res.status} ${await res.text()}`)
}

/** The fake TTS server's time to its answer's first body byte for text, from Node. */
async function ttsFirstByte(fake: string, text: string): Promise<number> {
  const t0 = performance.now()
  const res = await fetch(`${fake}/v1/audio/speech`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ model: 'tts-1', input: text, voice: 'alloy', response_format: 'wav', speed: 1 }),
  })
  expect(res.status, 'the floor: POST /v1/audio/speech').toBe(200)
  const reader = res.body!.getReader()
  const first = await reader.read()
  const t1 = performance.now()
  expect(first.done, 'the floor: the speech answer has a body').toBe(false)
  while (!(await reader.read()).done) {
    // Drain the rest, as a client would.
  }
  return t1 - t0
}

/** The fake STT server's time to its whole answer for the WAV bytes, from Node (multipart, as Wisp's server posts it). */
async function sttAnswer(fake: string, wav: Buffer): Promise<number> {
  const form = new FormData()
  form.append('file', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'speech.wav')
  form.append('model', 'whisper-1')
  const t0 = performance.now()
  const res = await fetch(`${fake}/v1/audio/transcriptions`, { method: 'POST', body: form })
  const body = (await res.json()) as { text?: string }
  const t1 = performance.now()
  expect(res.status, 'the floor: POST /v1/audio/transcriptions').toBe(200)
  expect(body.text).toBe(TRANSCRIPT)
  return t1 - t0
}

/** One round of speech: send the message, wait until its first clause plays, read the marks; then the floor. */
async function speechRound(page: Page, fake: string, clauses: string[]): Promise<SpeechSample> {
  clauses.length = 0
  await page.evaluate(() => {
    performance.clearMarks()
    performance.clearResourceTimings()
  })
  await page.fill(COMPOSER, MESSAGE)
  await page.click('[data-testid="send"]')
  await page.waitForFunction(() => performance.getEntriesByName('wisp:speech-start').length > 0, undefined, { timeout: 60_000, polling: 50 })
  // The reply done, then its speech stopped (Esc), so the next round starts quiet.
  await page.locator('[data-testid="send"]').waitFor({ timeout: 60_000 })
  await page.locator(COMPOSER).press('Escape')
  await page.locator(`${FORM}[data-speech="idle"]`).waitFor({ timeout: 30_000 })
  const m = await page.evaluate(() => {
    const at = (name: string) => performance.getEntriesByName(name)[0]?.startTime ?? NaN
    const speech = (performance.getEntriesByType('resource') as PerformanceResourceTiming[])
      .filter((e) => new URL(e.name).pathname === '/api/speech')
      .sort((a, b) => a.startTime - b.startTime)[0]
    return {
      token: at('wisp:first-token'),
      start: at('wisp:speech-start'),
      fetchStart: speech?.startTime ?? NaN,
      responseStart: speech?.responseStart ?? NaN,
      responseEnd: speech?.responseEnd ?? NaN,
    }
  })
  const clause = clauses[0]
  expect(clause, 'the first clause the page asked to speak').toBeDefined()
  const floorMs = await ttsFirstByte(fake, clause!)
  const sample = {
    wispMs: m.start - m.token,
    floorMs,
    clauseMs: m.fetchStart - m.token,
    firstByteMs: m.responseStart - m.fetchStart,
    downloadMs: m.responseEnd - m.responseStart,
    decodeMs: m.start - m.responseEnd,
    clause: clause!,
  }
  for (const [k, v] of Object.entries(sample)) if (typeof v === 'number') expect(Number.isFinite(v), `speech ${k}`).toBe(true)
  return sample
}

/** Waits until the fake mic has played its voiced part and gone quiet again (the mic's level meter). */
async function waitForUtterance(page: Page): Promise<void> {
  const level = (above: boolean) =>
    page.waitForFunction(
      (above) => {
        const fill = document.querySelector<HTMLElement>('[data-testid="mic-level"]')
        const m = fill === null ? null : /scaleX\(([\d.]+)\)/.exec(fill.style.transform)
        return m !== null && (above ? Number(m[1]) > 0.2 : Number(m[1]) < 0.05)
      },
      above,
      { timeout: 30_000 },
    )
  await level(true)
  await level(false)
}

/** One round of push-to-talk: record the utterance, stop, wait for the transcript; then the floor with the same WAV. */
async function listenRound(page: Page, fake: string): Promise<ListenSample> {
  await page.fill(COMPOSER, '')
  await page.evaluate(() => {
    const w = window as unknown as { __voice: { clicks: number[]; valueAt: number; audio: Blob | null } }
    w.__voice.clicks = []
    w.__voice.valueAt = 0
    w.__voice.audio = null
    performance.clearResourceTimings()
  })
  await page.click(MIC)
  await page.locator('[data-testid="mic-area"][data-recording="push"]').waitFor({ timeout: 30_000 })
  await waitForUtterance(page)
  await page.click(MIC)
  await page.waitForFunction(() => (window as unknown as { __voice: { valueAt: number } }).__voice.valueAt > 0, undefined, { timeout: 30_000, polling: 50 })
  await page.locator('[data-testid="mic-area"][data-recording="off"]').waitFor({ timeout: 30_000 })
  expect(await page.locator(COMPOSER).inputValue()).toBe(TRANSCRIPT)
  const posted = Buffer.from(
    await page.evaluate(async () => {
      const audio = (window as unknown as { __voice: { audio: Blob | null } }).__voice.audio
      return audio === null ? [] : [...new Uint8Array(await audio.arrayBuffer())]
    }),
  )
  const m = await page.evaluate(() => {
    const v = (window as unknown as { __voice: { clicks: number[]; valueAt: number } }).__voice
    const req = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find(
      (e) => new URL(e.name).pathname === '/api/transcriptions',
    )
    return { stop: v.clicks[1] ?? NaN, valueAt: v.valueAt, fetchStart: req?.startTime ?? NaN, responseEnd: req?.responseEnd ?? NaN }
  })
  expect(posted.subarray(0, 4).toString('latin1'), 'the page posted a WAV').toBe('RIFF')
  const wav = posted
  const floorMs = await sttAnswer(fake, wav)
  const sample = {
    wispMs: m.valueAt - m.stop,
    floorMs,
    encodeMs: m.fetchStart - m.stop,
    requestMs: m.responseEnd - m.fetchStart,
    uiMs: m.valueAt - m.responseEnd,
    wavBytes: wav.length,
  }
  for (const [k, v] of Object.entries(sample)) expect(Number.isFinite(v), `listen ${k}`).toBe(true)
  return sample
}

const ms = (x: number) => `${x.toFixed(0)} ms`
const med = <T>(xs: T[], f: (x: T) => number) => median(xs.map(f))
const p90 = <T>(xs: T[], f: (x: T) => number) => percentile(xs.map(f), 90)

function row<T extends { wispMs: number; floorMs: number }>(
  name: string,
  xs: T[],
  figure: (x: T) => number = (x) => x.wispMs,
  checked = true,
): { line: string; pass: boolean; wisp: number; floor: number } {
  const wisp = med(xs, figure)
  const floor = med(xs, (s) => s.floorMs)
  const limit = TARGET_RATIO * floor + TARGET_SLACK_MS
  const pass = wisp <= limit
  return {
    line:
      `| ${name} | ${checked ? `**${ms(wisp)}**` : ms(wisp)} (${ms(p90(xs, figure))}) | ${ms(floor)} (${ms(p90(xs, (s) => s.floorMs))}) | ` +
      (checked ? `**${(wisp / floor).toFixed(2)}×** | ≤ ${ms(limit)} | ${pass ? 'pass' : '**MISSED**'} |` : `${(wisp / floor).toFixed(2)}× | — | — |`),
    pass,
    wisp,
    floor,
  }
}

/** What the speech figures say: which part of Wisp's time decides the verdict, and what would shorten it. */
function speechReading(
  sp: { pass: boolean; wisp: number; floor: number },
  fromClause: { pass: boolean; wisp: number; floor: number },
  clauseMs: number,
  afterFirstByteMs: number,
): string {
  const limit = TARGET_RATIO * sp.floor + TARGET_SLACK_MS
  const head = sp.pass
    ? `Reading: the target is met (${ms(sp.wisp)} ≤ ${ms(limit)}).`
    : `Reading: the target is missed by ${ms(sp.wisp - limit)}, and the wait for the first clause to be complete (${ms(clauseMs)}) is ` +
      `${clauseMs >= sp.wisp - limit ? 'larger than the whole excess' : 'part of it'}: once the clause is complete, Wisp is heard ` +
      `${ms(fromClause.wisp)} later, ${(fromClause.wisp / fromClause.floor).toFixed(2)}× the floor, within the target's allowance ` +
      `(${fromClause.wisp <= limit ? 'it would pass' : 'it would still miss'}).`
  return (
    `${head} The clause wait grows with the model's pace (a word every ${WORD_DELAY_MS} ms here) and the first clause's length; ` +
    `what would shorten it further is cutting the first clause sooner (at a word boundary after a few words, or after a time, rather ` +
    `than at the first , ; or : past 8 characters). Playing PCM as it streams in, rather than after the whole clause's WAV is downloaded and ` +
    `decoded, would save at most the ${ms(afterFirstByteMs)} between the first byte and the start here (the fake sends the whole WAV at ` +
    `once; a real server that synthesises at a finite rate makes that part longer).`
  )
}

const INTRO = `## Voice: first token → speech, end of speech → transcript

Wisp's voice in the browser (\`wisp serve\` with the fake model, which also serves the
fake speech and transcription servers, \`voice.tts.baseURL\` and \`voice.stt.baseURL\`
both its \`/v1\`, \`voice.speakReplies\` on), in headless Chromium with a fake microphone
playing the WAV \`frontend/e2e/fixtures/makeSpeechWav.mjs\` writes (0.4 s of silence,
1.5 s of a voiced sound, 2 s of silence) and \`--autoplay-policy=no-user-gesture-required\`;
one server, one page, many rounds. The fake speech server waits 150 ms before its first
byte (a local TTS server's time to start; the fake's own default is none), then sends the
whole WAV (24 kHz, 60 ms of tone per character) in 4,800-byte chunks; the fake model
streams the reply a word every 20 ms. **Speech**: each round sends a message (the reply:
"You said: " and the message, two sentences); Wisp's figure is from the
page's \`wisp:first-token\` mark (the reply's first token handled by the page) to its
\`wisp:speech-start\` mark (the first clause's audio source started), both set by
\`frontend/src/voice/speechPlayer.ts\`. The floor: the speech server's own time to first
byte for the same first clause (the text the page sent to \`POST /api/speech\`), a direct
POST from Node to the fake's \`/v1/audio/speech\` in the same round, to the first body
chunk. **Transcription**: each round clicks the mic button, waits until the fake
microphone's voiced part has passed (the level meter), and clicks it again; Wisp's figure
is from that click to the composer's value being the fake's transcript (the textarea's
value setter, watched in the page with \`performance.now()\`). The floor: the transcription
server's own time for the same WAV bytes the page posted (a direct multipart POST from
Node to the fake's \`/v1/audio/transcriptions\`, request → the whole answer). Medians
decide; p90 in parentheses. Target for both: Wisp ≤ 1.2 × the floor + 50 ms. For comparison
only, a second speech row counts from the page's \`POST /api/speech\` for the first clause
(the clause complete and its frame in the page) instead of the first token. Driver:
\`frontend/bench/voice.uibench.ts\` (\`make bench-ui\`, or \`make bench-voice\` for this
one alone).
`

it('speaks the first clause and transcribes push-to-talk, against the audio servers', async () => {
  requireBuild()
  const wavPath = artifact('fake-mic-speech.wav')
  execFileSync(process.execPath, [GENERATOR, wavPath])
  let fake: RunningProcess | null = null
  let wisp: RunningServer | null = null
  try {
    fake = await spawnUntilReady(fakeLLMBinary(), ['--addr', '127.0.0.1:0', '--delay', `${WORD_DELAY_MS}ms`, '--speech-delay', `${SPEECH_DELAY_MS}ms`], {
      name: 'fake LLM',
      env: {},
      ready: /fake LLM listening on (http:\/\/\S+)/,
      timeoutMs: 30_000,
    })
    wisp = await startServer({ env: fakeModelEnv(fake.url) })
    await putConfig(wisp, { voice: { tts: { baseURL: `${fake.url}/v1` }, stt: { baseURL: `${fake.url}/v1` }, speakReplies: true } })
    const fakeURL = fake.url
    const openURL = wisp.openURL
    const { speech, listen } = await withBrowser(
      async (page) => {
        const clauses: string[] = []
        page.on('request', (req) => {
          const path = new URL(req.url()).pathname
          if (req.method() !== 'POST') return
          if (path === '/api/speech') clauses.push((JSON.parse(req.postData() ?? '{}') as { text: string }).text)
        })
        await page.addInitScript(WATCH(TRANSCRIPT))
        await page.goto(openURL)
        await page.waitForSelector(`${COMPOSER}:not([disabled])`, { timeout: 60_000 })
        await page.waitForSelector(AVATAR_DRAWN, { timeout: 60_000 })
        await page.locator(MIC).waitFor({ timeout: 60_000 })
        // One round of each first, not counted: the page's first AudioContext, decoder and recorder.
        await speechRound(page, fakeURL, clauses)
        await listenRound(page, fakeURL)
        const speech: SpeechSample[] = []
        const listen: ListenSample[] = []
        for (let r = 0; r < ROUNDS; r++) {
          speech.push(await speechRound(page, fakeURL, clauses))
          const s = speech.at(-1)!
          console.error(
            `speech round ${r + 1}: wisp ${ms(s.wispMs)} (clause ${ms(s.clauseMs)}, first byte ${ms(s.firstByteMs)}, ` +
              `download ${ms(s.downloadMs)}, decode+start ${ms(s.decodeMs)}), floor ${ms(s.floorMs)}: ${JSON.stringify(s.clause)}`,
          )
        }
        for (let r = 0; r < ROUNDS; r++) {
          listen.push(await listenRound(page, fakeURL))
          const s = listen.at(-1)!
          console.error(
            `listen round ${r + 1}: wisp ${ms(s.wispMs)} (stop+encode ${ms(s.encodeMs)}, request ${ms(s.requestMs)}, ui ${ms(s.uiMs)}), ` +
              `floor ${ms(s.floorMs)}, ${s.wavBytes} bytes`,
          )
        }
        return { speech, listen }
      },
      {
        args: [
          '--use-fake-ui-for-media-stream',
          '--use-fake-device-for-media-stream',
          `--use-file-for-fake-audio-capture=${wavPath}%noloop`,
          '--autoplay-policy=no-user-gesture-required',
        ],
      },
    )

    const clauses = [...new Set(speech.map((s) => s.clause))]
    const sp = row('First reply token → first clause heard (floor: the TTS server\'s time to first byte for it)', speech)
    const fromClause = row(
      'Not the target, for comparison: the first clause complete (its `POST /api/speech` begun) → heard, against the same floor',
      speech,
      (s) => s.firstByteMs + s.downloadMs + s.decodeMs,
      false,
    )
    const li = row('Push-to-talk released → transcript in the composer (floor: the STT server\'s time for the same WAV)', listen)
    const kb = (med(listen, (s) => s.wavBytes) / 1024).toFixed(0)
    const block = [
      `${measuredWith()} · fake speech server: ${SPEECH_DELAY_MS} ms before its first byte; fake model: a word every ${WORD_DELAY_MS} ms · ` +
        `${ROUNDS} rounds of each in one page (after one round of each not counted), each round's floor measured right after it.`,
      '',
      '| Figure | Wisp: median (p90) | floor: median (p90) | **Wisp / floor** | target: 1.2 × floor + 50 ms | Result |',
      '|---|--:|--:|--:|--:|---|',
      sp.line,
      fromClause.line,
      li.line,
      '',
      `Where Wisp's time to speech goes (medians): the first clause complete and its \`POST /api/speech\` begun ${ms(med(speech, (s) => s.clauseMs))} ` +
        `after the first token (the reply streams a word every ${WORD_DELAY_MS} ms; the first clause, ${clauses.map((c) => JSON.stringify(c)).join(', ')}, ` +
        `is cut early at its first , ; or : once it has 8 characters, and sent at once); that request → its first byte ${ms(med(speech, (s) => s.firstByteMs))} ` +
        `(Wisp's relay and the TTS server's ${ms(sp.floor)}); the whole clause's WAV ${ms(med(speech, (s) => s.downloadMs))} more; ` +
        `decoding it (\`decodeAudioData\`) and starting the source ${ms(med(speech, (s) => s.decodeMs))}. ` +
        `The page plays a clause only once all of it is downloaded and decoded.`,
      '',
      speechReading(sp, fromClause, med(speech, (s) => s.clauseMs), med(speech, (s) => s.downloadMs + s.decodeMs)),
      '',
      `Where Wisp's time to the transcript goes (medians): stopping the capture and encoding the ${kb} KB 16 kHz WAV in the page, to its ` +
        `\`POST /api/transcriptions\` begun, ${ms(med(listen, (s) => s.encodeMs))}; that request → its whole answer ` +
        `${ms(med(listen, (s) => s.requestMs))} (Wisp's relay and the STT server's ${ms(li.floor)}); the answer → the composer's value ` +
        `${ms(med(listen, (s) => s.uiMs))}.`,
    ].join('\n')
    console.log(block)
    if (process.env.UIBENCH_OUT !== '0') {
      writeFileSync(BENCHMARKS, replaceSection(readFileSync(BENCHMARKS, 'utf8'), 'voice', INTRO, block))
    }
  } finally {
    await wisp?.stop()
    await fake?.stop()
  }
}, 1_800_000)
