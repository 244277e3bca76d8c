// End to end chat: the real server binary answering with the fake LLM, the
// built UI, headless Chromium. Needs `npm run build`, the server binary
// (WISP_BIN, default ../build/bin/wisp-serve) and the fake LLM
// (WISP_FAKELLM_BIN, default ../build/bin/wisp-fakellm).

import { existsSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, withBrowser } from './browser'
import { NO_MODEL_ENV, fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { serverPerTest } from './server'

const ASSISTANT = '[data-testid="message"][data-role="assistant"]'

interface Snapshot {
  status: string | null
  text: string
}

/** Records every state the last assistant bubble goes through, from now on. */
async function recordReplies(page: Page): Promise<void> {
  await page.evaluate((selector) => {
    const log: Snapshot[] = []
    Object.assign(window, { __replyLog: log })
    const snap = () => {
      const bubbles = document.querySelectorAll(selector)
      const last = bubbles[bubbles.length - 1]
      if (last === undefined) return
      const entry = {
        status: last.getAttribute('data-status'),
        text: last.querySelector('[data-testid="message-text"]')?.textContent ?? '',
      }
      const prev = log[log.length - 1]
      if (prev === undefined || prev.status !== entry.status || prev.text !== entry.text) log.push(entry)
    }
    new MutationObserver(snap).observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true })
  }, ASSISTANT)
}

/** The paths (and queries) of the reply streams the page opens from now on. */
function recordStreamRequests(page: Page): string[] {
  const paths: string[] = []
  page.on('request', (req) => {
    const url = new URL(req.url())
    if (url.pathname.endsWith('/stream')) paths.push(url.pathname + url.search)
  })
  return paths
}

async function replyLog(page: Page): Promise<Snapshot[]> {
  return page.evaluate(() => (window as unknown as { __replyLog: Snapshot[] }).__replyLog)
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

async function waitForReplies(page: Page, count: number): Promise<void> {
  await page.waitForFunction(
    ([selector, n]) => {
      const bubbles = document.querySelectorAll(selector)
      return bubbles.length === n && [...bubbles].every((b) => b.getAttribute('data-status') === 'done')
    },
    [ASSISTANT, count] as const,
    { timeout: UI_TIMEOUT },
  )
}

/** Waits until the last assistant bubble, still streaming, shows at least `words` words of its reply. */
async function waitForPartialReply(page: Page, words: number): Promise<void> {
  await page.waitForFunction(
    ([selector, n]) => {
      const bubbles = document.querySelectorAll(selector)
      const last = bubbles[bubbles.length - 1]
      const text = last?.querySelector('[data-testid="message-text"]')?.textContent ?? ''
      return last?.getAttribute('data-status') === 'streaming' && text.trim().split(/\s+/).length >= n && text.trim() !== ''
    },
    [ASSISTANT, words] as const,
    { timeout: UI_TIMEOUT },
  )
}

async function waitForLastStatus(page: Page, status: string): Promise<void> {
  await page.waitForFunction(
    ([selector, want]) => {
      const bubbles = document.querySelectorAll(selector)
      return bubbles[bubbles.length - 1]?.getAttribute('data-status') === want
    },
    [ASSISTANT, status] as const,
    { timeout: UI_TIMEOUT },
  )
}

async function messages(page: Page): Promise<{ role: string | null; status: string | null; text: string }[]> {
  return page.locator('[data-testid="message"]').evaluateAll((els) =>
    els.map((el) => ({
      role: el.getAttribute('data-role'),
      status: el.getAttribute('data-status'),
      text: el.querySelector('[data-testid="message-text"]')?.textContent ?? '',
    })),
  )
}

describe('chat', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('streams a reply, lists the conversation and reopens it after a reload', async () => {
    // The page draws a streaming reply at most once per animation frame, so words that arrive
    // within one frame show together; a word every 100 ms leaves the growth visible on a busy machine.
    const fake = await startFakeLLM({ delay: '100ms' })
    llm = fake
    const s = await start({
      env: fakeModelEnv(fake.url),
    })
    const text = 'please echo these few words back to me'
    const want = `You said: ${text}`

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      expect(await page.locator('[data-testid="provider-setup"]').count()).toBe(0)
      expect(await page.locator('[data-testid="conversation-item"]').count()).toBe(0)

      await recordReplies(page)
      const streams = recordStreamRequests(page)
      await page.fill('[data-testid="composer"]', text)
      await page.click('[data-testid="send"]')
      await waitForReplies(page, 1)
      // It asked for the delta dialect (docs/chat.md): token frames carry only what changed.
      expect(streams).toHaveLength(1)
      expect(streams[0]).toMatch(/\/api\/conversations\/[^/]+\/messages\/stream\?dialect=delta$/)

      // It streamed: "streaming" first, the text grew through partial replies, then "done".
      const log = await replyLog(page)
      const statuses = log.map((e) => e.status)
      expect(statuses[0], JSON.stringify(log)).toBe('streaming')
      const firstDone = statuses.indexOf('done')
      expect(firstDone, JSON.stringify(log)).toBeGreaterThan(0)
      expect(statuses.slice(firstDone).every((st) => st === 'done'), JSON.stringify(log)).toBe(true)
      const partial = [...new Set(log.filter((e) => e.status === 'streaming' && e.text !== '').map((e) => e.text))]
      expect(partial.length, JSON.stringify(log)).toBeGreaterThanOrEqual(2)
      for (let i = 0; i < partial.length; i++) {
        expect(want.startsWith(partial[i]!.trimEnd()), partial[i]).toBe(true)
        if (i > 0) expect(partial[i]!.length).toBeGreaterThan(partial[i - 1]!.length)
      }

      expect(await messages(page)).toEqual([
        { role: 'user', status: 'done', text },
        { role: 'assistant', status: 'done', text: want },
      ])
      await waitForComposer(page)

      // The new conversation is listed, selected, and named in the URL.
      const rows = page.locator('[data-testid="conversation-item"]')
      await rows.first().waitFor({ timeout: UI_TIMEOUT })
      expect(await rows.count()).toBe(1)
      expect(await rows.first().getAttribute('data-active')).toBe('true')
      expect((await rows.first().textContent())?.trim()).not.toBe('')
      const hash = await page.evaluate(() => location.hash)
      expect(hash).toMatch(/^#\/c\/.+/)
      await page.screenshot({ path: artifact('chat.png') })

      await page.reload()
      await waitForReplies(page, 1)
      expect(await page.evaluate(() => location.hash)).toBe(hash)
      expect(await messages(page)).toEqual([
        { role: 'user', status: 'done', text },
        { role: 'assistant', status: 'done', text: want },
      ])
      expect(await rows.count()).toBe(1)
      expect(await rows.first().getAttribute('data-active')).toBe('true')
      await waitForComposer(page)

      // The desktop window's minimum size still shows the list, the reply and the composer.
      await page.setViewportSize({ width: 720, height: 480 })
      for (const id of ['composer', 'send', 'new-chat', 'conversation-item']) {
        const box = await page.locator(`[data-testid="${id}"]`).first().boundingBox()
        expect(box, id).not.toBeNull()
        expect(box!.x >= 0 && box!.y >= 0 && box!.x + box!.width <= 720 && box!.y + box!.height <= 480, `${id} ${JSON.stringify(box)}`).toBe(true)
      }
      expect(await page.locator(ASSISTANT).first().isVisible()).toBe(true)
      await page.screenshot({ path: artifact('chat-720x480.png') })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('asks for a model provider when none is set, and chats once one is saved', async () => {
    const fake = await startFakeLLM()
    llm = fake
    // No provider, and an Ollama URL nothing listens on, so detection finds none.
    const s = await start({ env: { ...NO_MODEL_ENV, WISP_OLLAMA_URL: 'http://127.0.0.1:9' } })

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      const form = page.locator('[data-testid="provider-setup"]')
      await form.waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator('[data-testid="composer"]').count()).toBe(0)
      const key = page.locator('[data-testid="provider-api-key"]')
      expect(await key.getAttribute('type')).toBe('password')

      await page.selectOption('[data-testid="provider-kind"]', 'openai')
      await page.fill('[data-testid="provider-base-url"]', `${fake.url}/v1`)
      await page.fill('[data-testid="provider-model"]', 'fake')
      await key.fill('k')
      await page.screenshot({ path: artifact('provider-setup.png') })
      await page.click('[data-testid="provider-save"]')

      await waitForComposer(page)
      await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT })

      const text = 'hello after setup'
      await page.fill('[data-testid="composer"]', text)
      await page.press('[data-testid="composer"]', 'Enter')
      await waitForReplies(page, 1)
      expect(await messages(page)).toEqual([
        { role: 'user', status: 'done', text },
        { role: 'assistant', status: 'done', text: `You said: ${text}` },
      ])
      await page.screenshot({ path: artifact('chat-after-setup.png') })

      // The key was stored but is never handed back.
      const res = await fetch(`${s.url}/api/provider`, { headers: s.auth })
      const body = (await res.json()) as Record<string, unknown>
      expect(body).toMatchObject({ provider: 'openai', model: 'fake', hasApiKey: true, canRespond: true })
      expect(JSON.stringify(body)).not.toContain('"k"')

      // Reopened from the header, the form says a key is saved and does not show it.
      await page.click('[data-testid="model-button"]')
      await form.waitFor({ timeout: UI_TIMEOUT })
      await page.locator('[data-testid="provider-key-state"]', { hasText: 'A key is saved' }).waitFor({ timeout: UI_TIMEOUT })
      expect(await key.inputValue()).toBe('')
      await page.click('[data-testid="provider-cancel"]')
      await waitForComposer(page)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('follows a long reply to its end, and leaves a reader who scrolled up where they are', async () => {
    // Eighty paragraphs, one every 25 ms: longer than the window, still growing for about two seconds.
    const paragraphs = Array.from({ length: 80 }, (_, i) => `Paragraph ${i + 1} of a reply long enough to scroll.\n\n`)
    // Every request takes a turn, the title's too: all of them are long.
    const fake = await startFakeLLM({ script: Array.from({ length: 4 }, () => ({ text: paragraphs, delay: '25ms' })) })
    llm = fake
    const s = await start({ env: fakeModelEnv(fake.url) })
    const fromBottom = (page: Page) =>
      page.locator('.message-scroller').evaluate((el) => ({ gap: el.scrollHeight - el.scrollTop - el.clientHeight, overflow: el.scrollHeight - el.clientHeight }))

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', 'tell me a long story')
      await page.click('[data-testid="send"]')
      await waitForReplies(page, 1)
      // The list follows after the frame that lays the last text out: wait for it.
      await page.waitForFunction(() => {
        const el = document.querySelector('.message-scroller')
        return el !== null && el.scrollHeight - el.scrollTop - el.clientHeight < 2
      }, undefined, { timeout: UI_TIMEOUT })
      expect((await fromBottom(page)).overflow, 'the reply is taller than the list').toBeGreaterThan(200)

      await waitForComposer(page)
      await page.locator('[data-testid="send"]').waitFor({ timeout: UI_TIMEOUT })
      await page.fill('[data-testid="composer"]', 'and another one')
      await page.click('[data-testid="send"]')
      await waitForPartialReply(page, 3)
      // The reader scrolls up while it is written: the list stops following.
      await page.locator('.message-scroller').hover()
      await page.mouse.wheel(0, -100_000)
      // The list comes to rest far from the bottom. Not necessarily at the very top: on a
      // busy machine the reply can grow between the wheel and the scroll it makes.
      const scrolledTo = await (
        await page.waitForFunction(
          () => {
            const el = document.querySelector('.message-scroller')
            if (el === null) return null
            const w = window as unknown as { lastScrollTop?: number }
            const resting = w.lastScrollTop === el.scrollTop
            w.lastScrollTop = el.scrollTop
            return resting && el.scrollHeight - el.scrollTop - el.clientHeight > 200 ? { top: el.scrollTop } : null
          },
          undefined,
          { timeout: UI_TIMEOUT },
        )
      ).jsonValue()
      expect(scrolledTo, 'scrolled up').not.toBeNull()
      await waitForReplies(page, 2)
      const stayed = await page.locator('.message-scroller').evaluate((el) => el.scrollTop)
      expect(stayed, 'still where the reader scrolled to').toBe(scrolledTo?.top)
      expect((await fromBottom(page)).gap, 'the rest of the reply grew below').toBeGreaterThan(200)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('picks up a reply still being written after a reload, in the delta dialect, and shows all of it', async () => {
    const fake = await startFakeLLM({ delay: '150ms' })
    llm = fake
    const s = await start({ env: fakeModelEnv(fake.url) })
    // About forty words at 150 ms each: the reply is still being written when the reloaded page asks for it.
    const text =
      'please echo this message back to me one word at a time while the page reloads in the middle of it so that the reloaded page has to pick the reply up where it is and follow it all the way to its very last word'
    const want = `You said: ${text}`

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      await page.fill('[data-testid="composer"]', text)
      await page.click('[data-testid="send"]')
      await waitForPartialReply(page, 3)

      const streams = recordStreamRequests(page)
      await page.reload()
      // The reloaded page shows the reply so far, picks its run up from the start and follows it to the end.
      await recordReplies(page)
      await waitForReplies(page, 1)
      expect(streams.some((p) => /^\/api\/runs\/[^/]+\/stream\?dialect=delta&after=0$/.test(p)), JSON.stringify(streams)).toBe(true)
      expect(await messages(page)).toEqual([
        { role: 'user', status: 'done', text },
        { role: 'assistant', status: 'done', text: want },
      ])
      // Every state it showed on the way is a beginning of the reply (the replay's deltas add up).
      const log = await replyLog(page)
      for (const entry of log) expect(want.startsWith(entry.text.trimEnd()), JSON.stringify(log)).toBe(true)
      await waitForComposer(page)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('stops a streaming reply, keeps what it said, and shows it stopped after a reload', async () => {
    const fake = await startFakeLLM({ delay: '150ms' })
    llm = fake
    const s = await start({
      env: fakeModelEnv(fake.url),
    })
    const text =
      'please echo this rather long message back to me one word at a time so that there is plenty of time to stop it halfway'
    const want = `You said: ${text}`
    const stoppedBubble = `${ASSISTANT}[data-status="stopped"]`

    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      await waitForComposer(page)
      expect(await page.locator('[data-testid="stop"]').count()).toBe(0)

      await page.fill('[data-testid="composer"]', text)
      await page.click('[data-testid="send"]')
      await waitForPartialReply(page, 3)
      expect(await page.locator('[data-testid="send"]').count()).toBe(0)
      await page.click('[data-testid="stop"]')
      await waitForLastStatus(page, 'stopped')

      // The partial reply is kept and marked stopped, calmly: no failure, no alert.
      const after = await messages(page)
      expect(after.map((m) => [m.role, m.status])).toEqual([
        ['user', 'done'],
        ['assistant', 'stopped'],
      ])
      expect(after[0]!.text).toBe(text)
      const partial = after[1]!.text
      expect(partial.trim()).not.toBe('')
      expect(partial.length, partial).toBeLessThan(want.length)
      expect(want.startsWith(partial.trimEnd()), partial).toBe(true)
      const bubble = page.locator(stoppedBubble)
      expect(await bubble.locator('[data-testid="message-stopped"]').textContent()).toContain('Stopped')
      expect(await bubble.locator('[data-testid="message-error"], [role="alert"]').count()).toBe(0)
      expect(await bubble.locator('[data-testid="retry"]').count()).toBe(1)

      // The composer sends again.
      await waitForComposer(page)
      await page.locator('[data-testid="send"]').waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator('[data-testid="stop"]').count()).toBe(0)
      await page.fill('[data-testid="composer"]', 'next')
      expect(await page.locator('[data-testid="send"]').isEnabled()).toBe(true)
      await page.screenshot({ path: artifact('chat-stopped.png') })

      // The run ended as interrupted on the server, with the same text.
      const hash = await page.evaluate(() => location.hash)
      await page.reload()
      await page.locator(stoppedBubble).waitFor({ timeout: UI_TIMEOUT })
      expect(await page.evaluate(() => location.hash)).toBe(hash)
      expect(await messages(page)).toEqual([
        { role: 'user', status: 'done', text },
        { role: 'assistant', status: 'stopped', text: partial },
      ])
      expect(await page.locator(`${stoppedBubble} [data-testid="message-stopped"]`).textContent()).toContain('Stopped')
      expect(await page.locator('[data-testid="message-error"]').count()).toBe(0)
      await waitForComposer(page)

      // Escape in the composer stops too.
      const second = `${text} once more`
      await page.fill('[data-testid="composer"]', second)
      await page.press('[data-testid="composer"]', 'Enter')
      await waitForPartialReply(page, 1)
      await page.press('[data-testid="composer"]', 'Escape')
      await waitForLastStatus(page, 'stopped')
      const all = await messages(page)
      expect(all.map((m) => [m.role, m.status])).toEqual([
        ['user', 'done'],
        ['assistant', 'stopped'],
        ['user', 'done'],
        ['assistant', 'stopped'],
      ])
      expect(all[3]!.text.length).toBeLessThan(`You said: ${second}`.length)
      await waitForComposer(page)
      await page.locator('[data-testid="send"]').waitFor({ timeout: UI_TIMEOUT })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
