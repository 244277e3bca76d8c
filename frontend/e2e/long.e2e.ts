// A conversation of 10,000 messages in the browser (issue 29, item 5): it is
// imported from a JSON export (docs/export.md), opens at its last message with
// only the rows near the viewport in the DOM, scrolls up page by page (the row
// read stays where it was when a page arrives) to its first message, and a
// search result far up opens at its message, from where the list pages down to
// the end again. Needs the built UI and the server binary (WISP_BIN).

import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { pageURL, serverPerTest, type RunningServer } from './server'

const COUNT = 10_000
const CONV = 'long-conversation'
/** A conversation of 100 messages the same, to compare the open with. */
const SHORT = 'short-conversation'
/** The message a search finds: the seventh of the conversation (a question). */
const FAR = 6
/** Rows (li) the list may hold at any time, whatever the length. */
const MAX_LI = 200

const id = (i: number, prefix = 'long') => `${prefix}-m${String(i).padStart(5, '0')}`

/** Message i's text: questions and answers of realistic lengths, some with markdown and code. */
function text(i: number): string {
  if (i === FAR) return 'Where did we put the zanzibar quokka sketches?'
  if (i % 2 === 0) return `Question ${i}: how would you ${['sort', 'parse', 'cache', 'index'][i % 4]} the records of day ${i}?`
  const para = `Answer ${i}. One way is to keep the records in a **map** keyed by day, then walk them in order. `.repeat(1 + (i % 5))
  if (i % 3 !== 0) return para
  return `${para}\n\n- first, read them\n- then, group them\n\n\`\`\`go\nfor day, recs := range byDay {\n\tfmt.Println(day, len(recs)) // ${i}\n}\n\`\`\`\n`
}

function exportFile(): unknown {
  const t0 = Date.UTC(2026, 0, 1)
  const at = (i: number) => new Date(t0 + i * 60_000).toISOString()
  const messages = (n: number, prefix: string) =>
    Array.from({ length: n }, (_, i) => ({ id: id(i, prefix), role: i % 2 === 0 ? 'user' : 'assistant', text: text(i), createdAt: at(i) }))
  return {
    format: 'wisp-export',
    version: 1,
    exportedAt: at(COUNT),
    conversations: [
      { id: SHORT, title: 'One hundred', createdAt: at(0), updatedAt: at(99), messages: messages(100, 'short') },
      { id: CONV, title: 'Ten thousand', createdAt: at(0), updatedAt: at(COUNT - 1), messages: messages(COUNT, 'long') },
    ],
  }
}

async function importLong(s: RunningServer): Promise<void> {
  const res = await fetch(`${s.url}/api/import?format=wisp`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...s.auth },
    body: JSON.stringify(exportFile()),
  })
  const body = (await res.json()) as { imported?: number }
  expect(res.status, JSON.stringify(body)).toBe(200)
  expect(body.imported).toBe(2)
  // (The branch through the last message is the one shown, whether or not the import made it so.)
  for (const [conv, last] of [
    [CONV, id(COUNT - 1)],
    [SHORT, id(99, 'short')],
  ]) {
    const branch = await fetch(`${s.url}/api/conversations/${conv}/branch`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...s.auth },
      body: JSON.stringify({ messageId: last }),
    })
    expect(branch.status, await branch.text()).toBe(200)
  }
}

/**
 * Opens a conversation from the sidebar; the milliseconds from the click to the
 * frame after its last message is in the DOM (painted), measured in the page.
 */
async function openTime(page: Page, conversationId: string, last: string): Promise<number> {
  return page.evaluate(
    ([c, m]) =>
      new Promise<number>((done) => {
        const button = document.querySelector<HTMLElement>(`[data-conversation-id="${c}"] button.conversation-open`)!
        const t0 = performance.now()
        button.click()
        const poll = () => {
          if (document.querySelector(`[data-message-id="${m}"]`) === null) requestAnimationFrame(poll)
          else requestAnimationFrame(() => done(performance.now() - t0))
        }
        poll()
      }),
    [conversationId, last] as const,
  )
}

interface View {
  /** Ids of the message rows drawn, in order. */
  ids: string[]
  /** li elements in the list. */
  li: number
  scrollTop: number
  atBottom: boolean
}

const view = (page: Page): Promise<View> =>
  page.evaluate(() => {
    const scroller = document.querySelector('.message-scroller')!
    return {
      ids: [...document.querySelectorAll('[data-testid="message"]')].map((el) => el.getAttribute('data-message-id') ?? ''),
      li: document.querySelectorAll('ol.messages li').length,
      scrollTop: scroller.scrollTop,
      atBottom: scroller.scrollHeight - scroller.scrollTop - scroller.clientHeight < 8,
    }
  })

/** Whether the row of message i is drawn and wholly inside the scroller's box. */
const inView = (page: Page, i: number): Promise<boolean> =>
  page.evaluate((mid) => {
    const row = document.querySelector(`[data-testid="message"][data-message-id="${mid}"]`)
    if (row === null) return false
    const box = document.querySelector('.message-scroller')!.getBoundingClientRect()
    const r = row.getBoundingClientRect()
    return r.top >= box.top - 1 && r.bottom <= box.bottom + 1
  }, id(i))

/** The first message row whose bottom is inside the viewport, and where its top is on screen. */
const topRow = (page: Page): Promise<{ id: string; top: number } | null> =>
  page.evaluate(() => {
    const box = document.querySelector('.message-scroller')!.getBoundingClientRect()
    for (const el of document.querySelectorAll('[data-testid="message"]')) {
      const r = el.getBoundingClientRect()
      if (r.bottom > box.top + 1) return { id: el.getAttribute('data-message-id') ?? '', top: r.top }
    }
    return null
  })

/** Where a row of id is on screen (null: not drawn). */
const rowTop = (page: Page, mid: string): Promise<number | null> =>
  page.evaluate((m) => document.querySelector(`[data-message-id="${m}"]`)?.getBoundingClientRect().top ?? null, mid)

/**
 * Scrolls to one end, again and again as pages arrive, until message `until` is
 * drawn; checks the DOM bound on the way and returns the most li seen.
 */
async function scrollUntil(page: Page, end: 'top' | 'bottom', until: number): Promise<number> {
  let most = 0
  const deadline = Date.now() + 120_000
  for (;;) {
    const v = await view(page)
    most = Math.max(most, v.li)
    if (v.ids.includes(id(until))) return most
    expect(Date.now(), `reached ${id(until)} scrolling to the ${end} (drawn: ${v.ids[0]}…${v.ids.at(-1)})`).toBeLessThan(deadline)
    await page.evaluate((to) => {
      const s = document.querySelector('.message-scroller')!
      s.scrollTop = to === 'top' ? 0 : s.scrollHeight
    }, end)
    // The next page (or the rows near the new place) are drawn before the next round.
    await page.waitForFunction(
      ([first, last]) => {
        const rows = document.querySelectorAll('[data-testid="message"]')
        return rows[0]?.getAttribute('data-message-id') !== first || rows[rows.length - 1]?.getAttribute('data-message-id') !== last
      },
      [v.ids[0], v.ids.at(-1)] as const,
      { timeout: UI_TIMEOUT, polling: 'raf' },
    )
  }
}

describe('a conversation of 10,000 messages', () => {
  const start = serverPerTest()
  const timings: string[] = []
  let llm: RunningFakeLLM | null = null
  afterEach(async () => {
    await llm?.stop()
    llm = null
  })
  afterAll(() => {
    if (timings.length > 0) console.log(`long conversation: ${timings.join(', ')}`)
  })

  it('opens at its last message, scrolls up to its first, and a search result far up opens at the message', async () => {
    // (A model is set up, so the chat shows rather than the setup form; it is never asked.)
    llm = await startFakeLLM({ delay: '0ms' })
    const s = await start({ env: fakeModelEnv(llm.url) })
    await importLong(s)

    await withBrowser(async (page) => {
      const t0 = Date.now()
      await page.goto(pageURL(s, `#/c/${CONV}`))
      await page.waitForFunction((last) => document.querySelector(`[data-message-id="${last}"]`) !== null, id(COUNT - 1), {
        timeout: UI_TIMEOUT,
        polling: 'raf',
      })
      timings.push(`open to last message drawn ${Date.now() - t0} ms`)
      await page.waitForFunction(
        () => {
          const s = document.querySelector('.message-scroller')
          return s !== null && s.scrollHeight - s.scrollTop - s.clientHeight < 8
        },
        undefined,
        { timeout: UI_TIMEOUT },
      )
      expect(await inView(page, COUNT - 1)).toBe(true)
      // Opening it from the sidebar against a conversation of 100 (the median of five each).
      const short: number[] = []
      const long: number[] = []
      for (let i = 0; i < 5; i++) {
        short.push(await openTime(page, SHORT, id(99, 'short')))
        long.push(await openTime(page, CONV, id(COUNT - 1)))
      }
      const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
      timings.push(`open from the sidebar: 100 messages ${median(short).toFixed(0)} ms, 10,000 ${median(long).toFixed(0)} ms`)
      await page.waitForFunction(
        () => {
          const s = document.querySelector('.message-scroller')
          return s !== null && s.scrollHeight - s.scrollTop - s.clientHeight < 8
        },
        undefined,
        { timeout: UI_TIMEOUT },
      )
      const opened = await view(page)
      expect(opened.li).toBeLessThanOrEqual(MAX_LI)
      expect(opened.ids.length).toBeLessThan(100)
      const open = await page.screenshot({ path: artifact('long-open.png') })
      expect(await inkShare(page, open), 'share of the screenshot at the bottom that is text').toBeGreaterThan(0.01)

      // One step up: when the older page arrives, the row read stays where it was.
      await page.evaluate(() => {
        document.querySelector('.message-scroller')!.scrollTop = 0
      })
      // (the rows at the top of the loaded page are drawn first)
      await page.waitForFunction(
        () => {
          const box = document.querySelector('.message-scroller')!.getBoundingClientRect()
          return [...document.querySelectorAll('[data-testid="message"]')].some((el) => {
            const r = el.getBoundingClientRect()
            return r.top >= box.top && r.top < box.bottom
          })
        },
        undefined,
        { timeout: UI_TIMEOUT, polling: 'raf' },
      )
      const read = await topRow(page)
      expect(read).not.toBeNull()
      await page.waitForFunction(
        (mid) => document.querySelector(`[data-message-id="${mid}"]`) !== null,
        id(COUNT - 101),
        { timeout: UI_TIMEOUT, polling: 'raf' },
      )
      const after = await rowTop(page, read!.id)
      expect(after, `row ${read!.id} after the page arrived`).not.toBeNull()
      expect(Math.abs(after! - read!.top), `row ${read!.id} moved`).toBeLessThanOrEqual(2)

      // All the way up.
      const t1 = Date.now()
      const mostUp = await scrollUntil(page, 'top', 0)
      timings.push(`scroll to the first message ${Date.now() - t1} ms`)
      expect(mostUp).toBeLessThanOrEqual(MAX_LI)
      await page.evaluate(() => {
        document.querySelector('.message-scroller')!.scrollTop = 0
      })
      await page.waitForFunction(() => document.querySelector('[data-testid="messages-older"]') === null, undefined, {
        timeout: UI_TIMEOUT,
      })
      expect(await inView(page, 0)).toBe(true)
      const top = await page.screenshot({ path: artifact('long-top.png') })
      expect(await inkShare(page, top), 'share of the screenshot at the top that is text').toBeGreaterThan(0.01)
      const heap = await page.evaluate(() => (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0)
      timings.push(`JS heap at the top ${(heap / 1e6).toFixed(1)} MB`)

      // Opened again (at its last page), a search finds the seventh message: the page
      // around it is loaded and it opens there.
      await page.reload()
      await page.waitForFunction((last) => document.querySelector(`[data-message-id="${last}"]`) !== null, id(COUNT - 1), {
        timeout: UI_TIMEOUT,
      })
      expect((await view(page)).ids).not.toContain(id(FAR))
      await page.keyboard.press('Control+k')
      await page.waitForSelector('[data-testid="search-palette"] [data-testid="search-input"]:focus', { timeout: UI_TIMEOUT })
      await page.keyboard.type('zanzibar quokka')
      const result = `[data-testid="search-result"][data-message-id="${id(FAR)}"]`
      await page.waitForSelector(result, { timeout: UI_TIMEOUT })
      await page.click(result)
      const found = `[data-testid="message"][data-message-id="${id(FAR)}"]`
      await page.waitForSelector(`${found}[data-found]`, { timeout: UI_TIMEOUT })
      await page.waitForFunction(
        (sel) => {
          const row = document.querySelector(sel)
          const box = document.querySelector('.message-scroller')?.getBoundingClientRect()
          if (row === null || box === undefined) return false
          const r = row.getBoundingClientRect()
          return r.top >= box.top && r.bottom <= box.bottom
        },
        found,
        { timeout: UI_TIMEOUT },
      )
      const jumped = await view(page)
      expect(jumped.li).toBeLessThanOrEqual(MAX_LI)
      expect(jumped.atBottom).toBe(false)
      const shot = await page.screenshot({ path: artifact('long-found.png') })
      expect(await inkShare(page, shot), 'share of the screenshot of the found message that is text').toBeGreaterThan(0.01)
      expect(await page.locator(found).textContent()).toContain('zanzibar quokka')

      // From there, down page by page to the last message.
      const mostDown = await scrollUntil(page, 'bottom', COUNT - 1)
      expect(mostDown).toBeLessThanOrEqual(MAX_LI)
    })
  })
})
