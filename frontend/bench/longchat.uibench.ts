// The browser benchmark of a long conversation: the same chat page with 100 and
// with 10,000 messages, in headless Chromium (Debian's). Not a test: run it with
//
//   make bench-ui        (or: npx vitest run --config vitest.uibench.config.ts)
//
// after `make build-serve fakellm`. Both conversations are imported into one server
// (POST /api/import, a Wisp JSON export built by longchat.ts); each round opens each
// of them in a fresh browser, in turns, and measures: open (a click on it in the
// sidebar → its last message painted), keystroke → paint in the composer, DOM nodes
// and JS heap after opening and after scrolling up, the longest main-thread task
// while a reply streams at the bottom, and whether scrolling up reaches the first
// message. It writes the section between <!-- bench:uilong:begin --> and
// <!-- bench:uilong:end --> of BENCHMARKS.md.

import { readFileSync, writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Page } from 'playwright-core'
import { expect, it } from 'vitest'
import { artifact, withBrowser } from '../e2e/browser'
import { fakeModelEnv, startFakeLLM } from '../e2e/fakellm'
import { requireBuild, startServer, type RunningServer } from '../e2e/server'
import { longChat, type LongChat } from './longchat'
import { AVATAR_DRAWN, longTasks, measuredWith, median, OBSERVE, percentile, startProfile } from './pagekit'
import { replaceSection } from './section'

const ROUNDS = Number(process.env.UIBENCH_LONG_ROUNDS ?? 3)
const SIZES = (process.env.UIBENCH_LONG_SIZES ?? '100,10000').split(',').map(Number)
const KEYSTROKES = 100
/** How long scrolling up may go on before it is given up, in ms. */
const SCROLL_BUDGET_MS = 60_000
const BENCHMARKS = resolve(import.meta.dirname, '../../BENCHMARKS.md')

interface Sample {
  /** Click on the conversation → its last message painted, in ms. */
  openMs: number
  /** Longest task of the open, in ms (0: none of 50 ms or more). */
  openLongestMs: number
  /** Each keystroke's keydown → the frame after it, in ms. */
  keyMs: number[]
  domOpen: number
  heapOpenMB: number
  /** Longest task from send to the streamed reply complete on screen, in ms (0: none of 50 ms or more). */
  streamLongestMs: number
  /** Scrolling up reached the first message. */
  topReached: boolean
  /** Messages in the DOM once scrolling up stopped. */
  messagesAtTop: number
  domTop: number
  heapTopMB: number
}

/** A reply of about 1,500 tokens, streamed by the fake model a word every 2 ms. */
function reply(): string[] {
  const vocab = ['the', 'list', 'keeps', 'only', 'what', 'is', 'near', '**the**', 'viewport,', 'and', '`pages`', 'the rest']
  return Array.from({ length: 1500 }, (_, i) => (i % 80 === 79 ? '\n\n' : ' ') + vocab[i % vocab.length])
}

async function heapMB(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('HeapProfiler.collectGarbage')
  const { usedSize } = await cdp.send('Runtime.getHeapUsage')
  await cdp.detach()
  return usedSize / (1 << 20)
}

const domNodes = (page: Page) => page.evaluate(() => document.getElementsByTagName('*').length)

/** Waits until the element is in the DOM, then for the frame after it is drawn; resolves with that time (performance.now()). */
const PAINTED = `
  window.__painted = (selector) => new Promise((resolve) => {
    const done = () => requestAnimationFrame(() => setTimeout(() => resolve(performance.now()), 0))
    if (document.querySelector(selector)) return done()
    const obs = new MutationObserver(() => {
      if (document.querySelector(selector)) { obs.disconnect(); done() }
    })
    obs.observe(document.documentElement, { subtree: true, childList: true })
  })
`

async function measure(page: Page, wisp: RunningServer, chat: LongChat): Promise<Sample> {
  await page.addInitScript(OBSERVE)
  await page.addInitScript(PAINTED)
  await page.goto(wisp.openURL)
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: 60_000 })
  await page.waitForSelector(AVATAR_DRAWN, { timeout: 60_000 })
  const item = `[data-testid="conversation-item"][data-conversation-id="${chat.conversationId}"] [data-testid="conversation-title"]`
  await page.waitForSelector(item, { timeout: 60_000 })

  // Open: the click → the last message painted (the conversation's newest: earlier rounds' sends added some).
  const last = `[data-testid="message"][data-message-id="${await newestMessageId(wisp, chat)}"]`
  await page.evaluate((sel) => {
    const w = window as unknown as { __t0: number; __open: Promise<number>; __painted(s: string): Promise<number> }
    document.addEventListener('click', () => ((w.__t0 = performance.now()), (w.__open = w.__painted(sel))), { capture: true, once: true })
  }, last)
  await page.click(item)
  await page.waitForSelector(last, { state: 'attached', timeout: 60_000 }).catch(async (err: unknown) => {
    await page.screenshot({ path: artifact('longchat-open.png') })
    throw new Error(`${chat.title} did not open (its last message never showed; see e2e/artifacts/longchat-open.png)`, { cause: err })
  })
  const { t0, t1 } = await page.evaluate(async () => {
    const w = window as unknown as { __t0: number; __open: Promise<number> }
    return { t0: w.__t0, t1: await w.__open }
  })
  await page.waitForSelector('[data-testid="composer"]:not([disabled])')
  const openLongest = await longTasks(page, t0, t1)
  const domOpen = await domNodes(page)
  const heapOpenMB = await heapMB(page)

  const profiler = await startProfile(page)
  const keyMs = await typeKeys(page, '[data-testid="composer"]')
  await profiler(`keys-${chat.title}`)
  await page.fill('[data-testid="composer"]', 'go')

  // A reply streaming at the bottom: send → the reply complete on screen.
  const before = await page.locator('[data-testid="message"][data-role="assistant"]').count()
  const s0 = await page.evaluate(() => performance.now())
  await page.click('[data-testid="send"]')
  await page.waitForFunction(
    (n) => {
      const all = document.querySelectorAll('[data-testid="message"][data-role="assistant"]')
      const b = all[all.length - 1]
      return all.length > n && b?.getAttribute('data-status') === 'done' && b.querySelector('[data-revealing]') === null
    },
    before,
    { timeout: 120_000, polling: 100 },
  )
  const s1 = await page.evaluate(() => performance.now())
  const streamLongest = await longTasks(page, s0, s1)

  // Scrolling up, as far as it goes: to the top of the list, again each time more comes in.
  const first = `[data-testid="message"][data-message-id="${chat.firstMessageId}"]`
  const top = await page.evaluate(
    async ({ first, budget }) => {
      const scroller = document.querySelector('.message-scroller') as HTMLElement
      const until = performance.now() + budget
      let still = 0
      let lastHeight = -1
      let lastCount = -1
      while (performance.now() < until && document.querySelector(first) === null) {
        scroller.scrollTop = 0
        scroller.dispatchEvent(new WheelEvent('wheel', { deltaY: -400, bubbles: true }))
        await new Promise((r) => setTimeout(r, 250))
        const count = document.querySelectorAll('[data-testid="message"]').length
        if (scroller.scrollHeight === lastHeight && count === lastCount && scroller.scrollTop === 0) {
          if (++still >= 8) break // two seconds at the top with nothing more coming
        } else still = 0
        lastHeight = scroller.scrollHeight
        lastCount = count
      }
      return { reached: document.querySelector(first) !== null, messages: document.querySelectorAll('[data-testid="message"]').length }
    },
    { first, budget: SCROLL_BUDGET_MS },
  )
  return {
    openMs: t1 - t0,
    openLongestMs: openLongest.longestMs,
    keyMs,
    domOpen,
    heapOpenMB,
    streamLongestMs: streamLongest.longestMs,
    topReached: top.reached,
    messagesAtTop: top.messages,
    domTop: await domNodes(page),
    heapTopMB: await heapMB(page),
  }
}

/**
 * Keystroke → paint: a keydown's time stamp → a task after the next animation frame,
 * one key at a time, typed into the field; the same on Wisp's page and the floor's.
 */
async function typeKeys(page: Page, field: string): Promise<number[]> {
  await page.click(field)
  await page.evaluate(() => {
    const w = window as unknown as { __keys: number[]; __keyDone?: Promise<void> }
    w.__keys = []
    document.addEventListener(
      'keydown',
      (e) => {
        const start = e.timeStamp
        w.__keyDone = new Promise((resolve) =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              w.__keys.push(performance.now() - start)
              resolve()
            }, 0),
          ),
        )
      },
      { capture: true },
    )
  })
  for (let i = 0; i < KEYSTROKES; i++) {
    await page.keyboard.press(i % 10 === 9 ? 'Space' : 'KeyA')
    await page.evaluate(() => (window as unknown as { __keyDone?: Promise<void> }).__keyDone)
  }
  return page.evaluate(() => (window as unknown as { __keys: number[] }).__keys)
}

/** The keystroke floor: a bare page with one textarea, typed into the same way. */
async function floorKeys(page: Page): Promise<number[]> {
  await page.setContent('<!doctype html><textarea id="t" rows="3" cols="60"></textarea>')
  return typeKeys(page, '#t')
}

/** The id of the conversation's newest message on its shown branch. */
async function newestMessageId(wisp: RunningServer, chat: LongChat): Promise<string> {
  const res = await fetch(`${wisp.url}/api/conversations/${chat.conversationId}/messages?limit=1`, {
    headers: { Authorization: `Bearer ${wisp.token}` },
  })
  const page = (await res.json()) as { messages?: { id: string }[] }
  const id = page.messages?.at(-1)?.id
  expect(id, `the newest message of ${chat.title}`).toBeDefined()
  return id as string
}

async function importChat(wisp: RunningServer, chat: LongChat): Promise<void> {
  const res = await fetch(`${wisp.url}/api/import?format=wisp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${wisp.token}` },
    body: chat.file,
  })
  const body = (await res.json()) as { imported?: number }
  expect(res.status, `import of ${chat.title}`).toBe(200)
  expect(body.imported, `import of ${chat.title}`).toBe(1)
}

const INTRO = `## UI: 100 vs 10,000 messages

The same chat page with a conversation of 100 messages and one of 10,000 (built by
\`frontend/bench/longchat.ts\`: questions of one to three sentences, answers of one to
five blocks with paragraphs, lists, headings, bold, inline code and fenced code; 390
characters a message on average), both imported into one \`wisp serve\` through
\`POST /api/import\`. Each round opens each of them in a fresh headless Chromium, in turns,
once the page is loaded (composer enabled, avatar drawn). Open: the click on the
conversation in the sidebar → the frame after its last message is in the DOM.
Keystroke → paint: ${KEYSTROKES} keys typed in the composer one at a time, each from its
keydown's time stamp to a task after the next animation frame (p50 and p99 over all
rounds), against a floor typed into the same way in each round: a bare page with one
textarea (the next frame's wait is most of either figure). DOM: elements in the document; heap: V8's used heap after a forced GC (CDP),
both after opening and after scrolling up. Longest task while a reply streams: a
1,500-token reply (the fake model, a word every 2 ms) sent at the bottom, send → the reply
complete on screen (\`longtask\` PerformanceObserver, 50 ms or more). Top reachable:
scrolling the list to its top over and over (up to ${SCROLL_BUDGET_MS / 1000} s, stopping after
2 s with nothing more coming) shows the first message. Each round's send adds two messages
to the conversation it opened. Targets (issue 29): open ≤ 300 ms, keystroke p99 ≤ 16 ms,
DOM and heap bounded whatever the length, no task over 50 ms while a reply streams, the top
reachable. Driver: \`frontend/bench/longchat.uibench.ts\` (\`make bench-ui\`).
`

it('opens, types in and scrolls a conversation of 100 and of 10,000 messages', async () => {
  requireBuild()
  const chats = SIZES.map((n) => longChat(n))
  const fake = await startFakeLLM({ delay: '2ms', script: Array.from({ length: 4 * ROUNDS * SIZES.length + 4 }, () => ({ text: reply() })) })
  const wisp = await startServer({ env: fakeModelEnv(fake.url) })
  const samples = new Map<number, Sample[]>(SIZES.map((n) => [n, []]))
  const floor: number[] = []
  try {
    for (const chat of chats) await importChat(wisp, chat)
    for (let r = 0; r < ROUNDS; r++) {
      for (const [i, n] of SIZES.entries()) {
        const s = await withBrowser((page) => measure(page, wisp, chats[i]!))
        samples.get(n)!.push(s)
        console.error(
          `${n} messages round ${r + 1}: open ${s.openMs.toFixed(0)} ms, key p99 ${percentile(s.keyMs, 99).toFixed(1)} ms, ` +
            `DOM ${s.domOpen}→${s.domTop}, heap ${s.heapOpenMB.toFixed(1)}→${s.heapTopMB.toFixed(1)} MB, stream longest ${s.streamLongestMs.toFixed(0)} ms, ` +
            `top ${s.topReached ? 'reached' : `not reached (${s.messagesAtTop} messages)`}`,
        )
      }
      const keys = await withBrowser((page) => floorKeys(page))
      floor.push(...keys)
      console.error(`floor round ${r + 1}: key p99 ${percentile(keys, 99).toFixed(1)} ms`)
    }
  } finally {
    await wisp.stop()
    await fake.stop()
  }
  const block = table(samples, floor)
  console.log(block)
  if (process.env.UIBENCH_OUT !== '0') {
    writeFileSync(BENCHMARKS, replaceSection(readFileSync(BENCHMARKS, 'utf8'), 'uilong', INTRO, block))
  }
}, 1_800_000)

function table(samples: Map<number, Sample[]>, floor: number[]): string {
  const [small, large] = SIZES.map((n) => samples.get(n)!)
  const ms = (x: number) => `${x.toFixed(0)} ms`
  const key = (xs: Sample[], p: number) => percentile(xs.flatMap((s) => s.keyMs), p)
  const longest = (xs: Sample[], f: (s: Sample) => number) => Math.max(...xs.map(f))
  const longText = (x: number) => (x > 0 ? ms(x) : 'none ≥ 50 ms')
  const ratio = (a: number, b: number) => (a > 0 && b > 0 ? `${(b / a).toFixed(2)}×` : '–')
  const row = (name: string, f: (xs: Sample[]) => number, show: (x: number) => string, target: string) => {
    const a = f(small!)
    const b = f(large!)
    return `| ${name} | ${show(a)} | ${show(b)} | ${ratio(a, b)} | ${target} |`
  }
  const reached = (xs: Sample[]) => `${xs.filter((s) => s.topReached).length}/${xs.length} rounds`
  const atTop = (xs: Sample[]) => median(xs.map((s) => s.messagesAtTop)).toFixed(0)
  const verdict = (ok: boolean) => (ok ? 'pass' : '**MISSED**')
  const openL = median(large!.map((s) => s.openMs))
  const keyL = key(large!, 99)
  const streamL = longest(large!, (s) => s.streamLongestMs)
  const domRatio = median(large!.map((s) => s.domTop)) / median(small!.map((s) => s.domTop))
  const heapRatio = median(large!.map((s) => s.heapTopMB)) / median(small!.map((s) => s.heapTopMB))
  const top = large!.every((s) => s.topReached)
  const floor50 = percentile(floor, 50)
  const floor99 = percentile(floor, 99)
  return [
    `${measuredWith()} · ${ROUNDS} rounds of each size, taking turns.`,
    '',
    '| | 100 messages | 10,000 messages | ratio | target |',
    '|---|--:|--:|--:|---|',
    row('open → last message painted (median)', (xs) => median(xs.map((s) => s.openMs)), ms, '≤ 300 ms'),
    row('longest task while opening (max)', (xs) => longest(xs, (s) => s.openLongestMs), longText, ''),
    row('keystroke → paint p50', (xs) => key(xs, 50), (x) => `${x.toFixed(1)} ms`, ''),
    row('keystroke → paint p99', (xs) => key(xs, 99), (x) => `${x.toFixed(1)} ms`, '≤ 16 ms'),
    row('DOM elements after open (median)', (xs) => median(xs.map((s) => s.domOpen)), (x) => x.toFixed(0), 'bounded'),
    row('JS heap after open (median)', (xs) => median(xs.map((s) => s.heapOpenMB)), (x) => `${x.toFixed(1)} MB`, 'bounded'),
    row('DOM elements after scrolling up (median)', (xs) => median(xs.map((s) => s.domTop)), (x) => x.toFixed(0), 'bounded'),
    row('JS heap after scrolling up (median)', (xs) => median(xs.map((s) => s.heapTopMB)), (x) => `${x.toFixed(1)} MB`, 'bounded'),
    row('longest task while a reply streams (max)', (xs) => longest(xs, (s) => s.streamLongestMs), longText, '< 50 ms'),
    `| scrolling up reaches the first message | ${reached(small!)} | ${reached(large!)} (${atTop(large!)} messages shown at the top) | | yes |`,
    '',
    `Keystroke floor, a bare page with one textarea typed into the same way in the same rounds: p50 ${floor50.toFixed(1)} ms, ` +
      `p99 ${floor99.toFixed(1)} ms (the wait for the next frame is most of it). Wisp at 10,000 messages: p50 ${ratio(floor50, key(large!, 50))}, ` +
      `p99 ${ratio(floor99, keyL)} the floor.`,
    '',
    `Targets at 10,000 messages: open ≤ 300 ms: ${verdict(openL <= 300)} (${ms(openL)}); keystroke p99 ≤ 16 ms: ${verdict(keyL <= 16)} ` +
      `(${keyL.toFixed(1)} ms); DOM and heap bounded: ${domRatio.toFixed(2)}× and ${heapRatio.toFixed(2)}× the 100-message page after scrolling up; ` +
      `no task over 50 ms while a reply streams: ${verdict(streamL < 50)} (${longText(streamL)}); top reachable: ${verdict(top)}.`,
  ].join('\n')
}
