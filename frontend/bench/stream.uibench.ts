// The browser benchmark of a long reply: Wisp's UI against a bare-delta page, in
// headless Chromium (Debian's), in the same run. Not a test: run it with
//
//   make bench-ui        (or: npx vitest run --config vitest.uibench.config.ts)
//
// after `make build-serve fakellm`. It streams, from the fake model, an 8,000-token
// reply and a reply of 128 KB of "**a " (markdown that was quadratic to parse) into
// Wisp's chat, and the same text as bare delta frames into a page that only appends
// each delta to a text node. For each it reports the time from send to the end of
// the reply, the main thread's busy time (CDP TaskDuration) and its longest task
// (PerformanceObserver "longtask"), and writes the section between
// <!-- bench:ui:begin --> and <!-- bench:ui:end --> of BENCHMARKS.md.

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { withBrowser } from '../e2e/browser'
import { fakeLLMBinary, fakeModelEnv } from '../e2e/fakellm'
import { spawnUntilReady } from '../e2e/process'
import { requireBuild, startServer, type RunningServer } from '../e2e/server'
import { AVATAR_DRAWN, longTasks, measuredWith, median, OBSERVE, startProfile, taskClock } from './pagekit'
import { replaceSection } from './section'

const ROUNDS = Number(process.env.UIBENCH_ROUNDS ?? 8)
/** UIBENCH_CASES=<text>: only the cases whose name has it (for profiling one). */
const ONLY = process.env.UIBENCH_CASES
const BENCHMARKS = resolve(import.meta.dirname, '../../BENCHMARKS.md')

interface Sample {
  /** Send (or fetch) → the reply is complete on screen, in ms. */
  totalMs: number
  /** Main-thread task time over that span, in ms (CDP Performance.getMetrics TaskDuration). */
  busyMs: number
  /** The longest task while it streamed (Wisp: first text on screen → done), in ms (0: none over 50 ms, the long-task threshold). */
  longestMs: number
  /** How many tasks over 50 ms. */
  longTasks: number
  /** Wisp only: the longest task from page load to the avatar's first frame (start-up, not a target), in ms. */
  loadLongestMs?: number
  /** Wisp only: the longest task from send to the reply's first text on screen, in ms. */
  sendLongestMs?: number
  /** Wisp only: send → the reply's first text on screen, in ms. */
  firstMs?: number
}

/** A reply stream as Wisp's server sent it, to feed Wisp's UI again from memory. */
interface Recorded {
  body: Buffer
  runId: string
}

interface Case {
  name: string
  chunks: string[]
}

function words(n: number): string[] {
  const vocab = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'a', 'lazy', 'dog,', 'and', '**bold**', '`code`']
  const out: string[] = []
  for (let i = 0; i < n; i++) out.push((i % 97 === 96 ? '\n\n' : ' ') + vocab[i % vocab.length])
  return out
}

function hostile(bytes: number, chunk: number): string[] {
  const text = '**a '.repeat(bytes / 4)
  const out: string[] = []
  for (let i = 0; i < text.length; i += chunk) out.push(text.slice(i, i + chunk))
  return out
}

const CASES: Case[] = [
  { name: '8,000-token reply', chunks: words(8000) },
  { name: '128 KB of `**a `', chunks: hostile(128 << 10, 4096) },
]


/** Wisp: send a message, wait for the assistant bubble to say done. */
async function measureWisp(page: Page, url: string, c: Case, kind: 'e2e' | 'memory'): Promise<Sample> {
  await page.goto(url)
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: 60_000 })
  // Loaded as a user finds it before typing: the avatar's first frame is drawn.
  // Loading the 3D avatar (its GLB, shaders, first draws) is start-up, not streaming.
  await page.waitForSelector(AVATAR_DRAWN, { timeout: 60_000 })
  await page.fill('[data-testid="composer"]', 'go')
  await page.evaluate(() => {
    const w = window as unknown as { __t0: number; __t1: number; __tf?: number }
    document.querySelector('[data-testid="send"]')?.addEventListener('click', () => (w.__t0 = performance.now()), { capture: true })
    new MutationObserver((_, obs) => {
      // The reply's first text on screen: streaming has begun.
      if (w.__tf === undefined && w.__t0 !== undefined) {
        const text = document.querySelector('[data-testid="message"][data-role="assistant"] [data-testid="message-text"]')
        if (text !== null && (text.textContent ?? '') !== '') w.__tf = performance.now()
      }
      // Done, and all of its text on screen (a backlog is shown a budget per frame: Markdown.tsx).
      const done = document.querySelector('[data-testid="message"][data-role="assistant"][data-status="done"]')
      if (done && done.querySelector('[data-revealing]') === null) {
        w.__t1 = performance.now()
        obs.disconnect()
      }
    }).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-status', 'data-revealing'] })
  })
  const taskMs = await taskClock(page)
  const busy0 = await taskMs()
  const profiler = await startProfile(page)
  await page.click('[data-testid="send"]')
  await page.waitForFunction(() => (window as unknown as { __t1?: number }).__t1 !== undefined, undefined, { timeout: 300_000, polling: 100 })
  const busy1 = await taskMs()
  await profiler(`${c.name}-${kind}`)
  const { t0, tf, t1, shown } = await page.evaluate(() => {
    const w = window as unknown as { __t0: number; __t1: number; __tf?: number }
    const last = [...document.querySelectorAll('[data-testid="message"][data-role="assistant"]')].pop()
    return { t0: w.__t0, tf: w.__tf ?? w.__t0, t1: w.__t1, shown: last?.querySelector('[data-testid="message-text"]')?.textContent?.length ?? 0 }
  })
  expect(shown, `${c.name}: the finished bubble shows text`).toBeGreaterThan(0)
  const load = await longTasks(page, 0, t0 - 1)
  const sending = await longTasks(page, t0, tf - 1)
  return {
    totalMs: t1 - t0,
    busyMs: busy1 - busy0,
    ...(await longTasks(page, tf, t1)),
    loadLongestMs: load.longestMs,
    sendLongestMs: sending.longestMs,
    firstMs: tf - t0,
  }
}

/**
 * The floor: a bare page with no server behind it. The reply's frames, in the delta
 * dialect and as SSE, are in the page's memory; on "go" it reads them through a
 * ReadableStream (in network-sized chunks), splits the frames, parses each frame's JSON
 * and appends its text, and once per animation frame shows what arrived as the
 * cheapest markdown-equivalent text a page can: a <p> per paragraph, only the last one
 * rewritten. What Wisp takes beyond it is what Wisp's server and UI add.
 */
const FLOOR_URL = 'http://uibench.invalid/floor'
const FLOOR_READ_BYTES = 16 << 10

/** The case's reply as the SSE body of the delta dialect (token frames numbered from 1, then done). */
function deltaSse(c: Case): string {
  const text = c.chunks.join('')
  const frames = c.chunks.map((t, i) => `id: ${i + 1}\ndata: ${JSON.stringify({ type: 'token', text: t })}\n\n`)
  frames.push(`id: ${c.chunks.length + 1}\ndata: ${JSON.stringify({ type: 'done', text })}\n\n`)
  return frames.join('')
}

const floorPage = (sse: string) => `<!doctype html><meta charset="utf-8"><div id="out"></div><button id="go">go</button><script>
const SSE = ${JSON.stringify(sse).replace(/</g, '\\u003c')}
document.getElementById('go').onclick = async () => {
  window.__t0 = performance.now()
  const out = document.getElementById('out')
  const bytes = new TextEncoder().encode(SSE)
  let at = 0
  const body = new ReadableStream({ pull(c) { if (at >= bytes.length) c.close(); else { c.enqueue(bytes.subarray(at, at + ${FLOOR_READ_BYTES})); at += ${FLOOR_READ_BYTES} } } })
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let text = ''
  let shownParas = 0
  let last = null
  let ended = false
  let scheduled = false
  const draw = () => {
    scheduled = false
    const paras = text.split('\\n\\n')
    if (last !== null) last.data = paras[shownParas - 1]
    for (let i = shownParas; i < paras.length; i++) {
      const p = document.createElement('p')
      last = document.createTextNode(paras[i])
      p.append(last)
      out.append(p)
    }
    shownParas = paras.length
    if (ended) requestAnimationFrame(() => { window.__t1 = performance.now() })
  }
  let buf = ''
  for (;;) {
    const { value, done } = await reader.read()
    if (done) break
    buf += value
    let i
    let from = 0
    while ((i = buf.indexOf('\\n\\n', from)) >= 0) {
      const frame = buf.slice(from, i)
      from = i + 2
      const data = frame.split('\\n').find((l) => l.startsWith('data: '))
      if (!data) continue
      const m = JSON.parse(data.slice(6))
      if (m.type === 'token') text += m.text
      if (m.type === 'done') ended = true
    }
    buf = buf.slice(from)
    if (!scheduled) { scheduled = true; requestAnimationFrame(draw) }
  }
}
</script>`

async function measureFloor(page: Page, url: string): Promise<Sample> {
  await page.goto(url)
  const taskMs = await taskClock(page)
  const busy0 = await taskMs()
  await page.click('#go')
  await page.waitForFunction(() => (window as unknown as { __t1?: number }).__t1 !== undefined, undefined, { timeout: 300_000, polling: 100 })
  const busy1 = await taskMs()
  const { t0, t1, shown } = await page.evaluate(() => {
    const w = window as unknown as { __t0: number; __t1: number }
    return { t0: w.__t0, t1: w.__t1, shown: document.getElementById('out')?.textContent?.length ?? 0 }
  })
  expect(shown, 'the floor shows the reply').toBeGreaterThan(0)
  const load = await longTasks(page, 0, t0 - 1)
  return { totalMs: t1 - t0, busyMs: busy1 - busy0, ...(await longTasks(page, t0, t1)), loadLongestMs: load.longestMs }
}

/** A fresh server and fake model scripted with the case's reply, for one round. */
async function withWisp<T>(c: Case, fn: (wisp: RunningServer) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'wisp-uibench-'))
  const script = join(dir, 'turns.json')
  writeFileSync(script, JSON.stringify([{ text: c.chunks }]))
  const fake = await spawnUntilReady(fakeLLMBinary(), ['--addr', '127.0.0.1:0', '--delay', '0s', '--script', script], {
    name: 'fake LLM',
    env: {},
    ready: /fake LLM listening on (http:\/\/\S+)/,
    timeoutMs: 30_000,
  })
  const wisp = await startServer({ env: fakeModelEnv(fake.url) })
  try {
    return await fn(wisp)
  } finally {
    await wisp.stop()
    await fake.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

function wispRound(c: Case): Promise<Sample> {
  return withWisp(c, (wisp) =>
    withBrowser(async (page) => {
      await page.addInitScript(OBSERVE)
      return measureWisp(page, wisp.openURL, c, 'e2e')
    }),
  )
}

/** The bytes and run id of the case's reply stream as Wisp's server sends them to its UI (delta dialect). */
function recordStream(c: Case): Promise<Recorded> {
  return withWisp(c, async (wisp) => {
    const headers = { 'Content-Type': 'application/json', Authorization: `Bearer ${wisp.token}` }
    const conv = (await (await fetch(`${wisp.url}/api/conversations`, { method: 'POST', headers, body: '{}' })).json()) as {
      conversation: { id: string }
    }
    const res = await fetch(`${wisp.url}/api/conversations/${conv.conversation.id}/messages/stream?dialect=delta`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ text: 'go' }),
    })
    expect(res.status, `${c.name}: the stream to record`).toBe(200)
    return { body: Buffer.from(await res.arrayBuffer()), runId: res.headers.get('x-wisp-run-id') ?? '' }
  })
}

/**
 * Wisp's UI alone: the same page and server, but the reply's stream is answered from
 * memory (the bytes a real round received, through request interception), so neither
 * the server nor the model takes any time once the request is sent.
 */
function wispMemoryRound(c: Case, recorded: Recorded): Promise<Sample> {
  return withWisp(c, (wisp) =>
    withBrowser(async (page) => {
      await page.addInitScript(OBSERVE)
      await page.route(
        (u) => u.pathname.endsWith('/messages/stream'),
        (route) =>
          route.fulfill({
            status: 200,
            headers: { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache', 'X-Wisp-Run-Id': recorded.runId },
            body: recorded.body,
          }),
      )
      return measureWisp(page, wisp.openURL, c, 'memory')
    }),
  )
}

function floorRound(c: Case): Promise<Sample> {
  const body = floorPage(deltaSse(c))
  return withBrowser(async (page) => {
    await page.addInitScript(OBSERVE)
    await page.route(FLOOR_URL, (route) => route.fulfill({ contentType: 'text/html; charset=utf-8', body }))
    return measureFloor(page, FLOOR_URL)
  })
}

/** How many rounds had a task of 50 ms or more. */
function roundsWithLong(samples: Sample[]): number {
  return samples.filter((s) => s.longTasks > 0).length
}

function longestText(ms: number): string {
  return ms > 0 ? `${ms.toFixed(0)} ms` : 'none ≥ 50 ms'
}

function header(): string {
  return `${measuredWith()} · ${ROUNDS} rounds of each, Wisp end to end, Wisp's UI from memory and the floor taking turns.`
}

const INTRO = `## UI: a long reply in the browser

Wisp's chat UI (\`wisp serve\`, the fake model streaming with no delay between chunks)
against the floor: a bare page with no server that has the same reply's frames (delta
dialect, SSE) in memory, reads them through a ReadableStream in 16 KB chunks, parses each
frame and shows the text once per animation frame as cheaply as a page can (a \`<p>\` per
paragraph, only the last one rewritten). Wisp is measured twice: end to end (its server
and the fake model behind it), and its UI alone, fed from memory: the same page and
server, but the stream request is answered by request interception with the bytes the
server sent for the same reply (recorded once per case), so the ratio of that to the
floor is what the UI adds. All in headless Chromium, in the same run, a fresh browser
(and server and fake model) each round, the three kinds of round taking turns. Wisp's
page is measured as a user finds it before typing: loaded, the composer enabled and the avatar's first frame drawn (loading the 3D
avatar is start-up). Total: send → the reply complete on screen (Wisp: the bubble's
\`data-status="done"\` with no \`data-revealing\` left in it; the floor: the frame after
its last text is drawn). First text: send → the reply's first text on screen (creating
the conversation, the user's message, the run starting). Busy: the main thread's task
time over the total (CDP \`TaskDuration\`). Longest task: from a \`longtask\`
PerformanceObserver (tasks of 50 ms or more), while it streams (Wisp: from the reply's
first text to the end, in both kinds of round; the floor: send → end) and, apart, from
Wisp's send to the first text. Targets: the 8,000-token reply in Wisp's UI within 1.5×
the floor and no task of 50 ms or more while it streams; 128 KB of \`**a \` (markdown
that was quadratic) with no task over 100 ms. Driver: \`frontend/bench/stream.uibench.ts\`
(\`make bench-ui\`).
`

it('streams long replies in the browser', async () => {
  requireBuild()
  const rows: string[] = []
  const verdicts: string[] = []
  const loading: number[] = []
  for (const c of CASES) {
    if (ONLY !== undefined && !c.name.includes(ONLY)) continue
    const wisp: Sample[] = []
    const memory: Sample[] = []
    const floor: Sample[] = []
    const recorded = await recordStream(c)
    expect(recorded.body.toString('utf8'), `${c.name}: the recorded stream ends`).toContain('"type":"done"')
    for (let r = 0; r < ROUNDS; r++) {
      wisp.push(await wispRound(c))
      memory.push(await wispMemoryRound(c, recorded))
      floor.push(await floorRound(c))
      console.error(
        `${c.name} round ${r + 1}: wisp ${wisp.at(-1)!.totalMs.toFixed(0)} ms, wisp UI from memory ${memory.at(-1)!.totalMs.toFixed(0)} ms, ` +
          `floor ${floor.at(-1)!.totalMs.toFixed(0)} ms`,
      )
    }
    const med = (xs: Sample[], f: (s: Sample) => number) => median(xs.map(f))
    const total = (s: Sample) => s.totalMs
    const uiRatio = med(memory, total) / med(floor, total)
    const e2eRatio = med(wisp, total) / med(floor, total)
    const streaming = [...wisp, ...memory]
    const longest = Math.max(...streaming.map((s) => s.longestMs))
    rows.push(
      `| ${c.name} | ${med(wisp, total).toFixed(0)} ms (${med(wisp, (s) => s.firstMs ?? 0).toFixed(0)} ms) | ` +
        `${med(memory, total).toFixed(0)} ms (${med(memory, (s) => s.firstMs ?? 0).toFixed(0)} ms) | ${med(floor, total).toFixed(0)} ms | ` +
        `**${uiRatio.toFixed(2)}×** | ${e2eRatio.toFixed(2)}× | ` +
        `${med(memory, (s) => s.busyMs).toFixed(0)} ms | ${med(floor, (s) => s.busyMs).toFixed(0)} ms | ` +
        `${longestText(longest)} (${roundsWithLong(streaming)}/${streaming.length} rounds) | ` +
        `${longestText(Math.max(...streaming.map((s) => s.sendLongestMs ?? 0)))} | ` +
        `${longestText(Math.max(...floor.map((s) => s.longestMs)))} (${roundsWithLong(floor)}/${floor.length} rounds) |`,
    )
    loading.push(...streaming.map((s) => s.loadLongestMs ?? 0))
    if (c === CASES[0]) {
      verdicts.push(`8,000 tokens in Wisp's UI within 1.5× the floor: ${uiRatio <= 1.5 ? 'pass' : '**MISSED**'} (${uiRatio.toFixed(2)}×)`)
      verdicts.push(
        `no task of 50 ms or more while it streams: ${longest < 50 ? 'pass' : '**MISSED**'} (longest ${longestText(longest)}, in ` +
          `${roundsWithLong(streaming)} of ${streaming.length} rounds; the bare floor page had one in ${roundsWithLong(floor)} of ${floor.length})`,
      )
    } else {
      verdicts.push(`128 KB of \`**a \` with no task over 100 ms: ${longest < 100 ? 'pass' : '**MISSED**'} (longest ${longestText(longest)})`)
    }
  }
  const block = [
    header(),
    '',
    '| Reply | Wisp end to end: total (first text) | Wisp UI fed from memory: total (first text) | floor total | **UI / floor** | end to end / floor | Wisp UI busy | floor busy | Wisp longest task while streaming (rounds with one) | Wisp longest task, send → first text | floor longest task (rounds with one) |',
    '|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|',
    ...rows,
    '',
    'Targets: ' + verdicts.join('; ') + '.',
    '',
    `Not a target: while Wisp's page loads, before anything is sent, its longest task is ${median(loading).toFixed(0)} ms ` +
      `(median of the ${loading.length} page loads; the bundle, the first render and the avatar's GLB, shaders and first draws).`,
  ].join('\n')
  console.log(block)
  if (process.env.UIBENCH_OUT !== '0') {
    writeFileSync(BENCHMARKS, replaceSection(readFileSync(BENCHMARKS, 'utf8'), 'ui', INTRO, block))
  }
}, 1_800_000)
