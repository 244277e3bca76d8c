// The Markdown component in a (fake) document: a text that grows by more than
// a frame's budget is shown a budget per animation frame, ends exactly as a
// fresh render of the whole text.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { FIRST_STEP, MAX_STEP, MIN_STEP } from '../markdown/reveal'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

describe('Markdown reveal', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let Markdown: typeof import('./Markdown').Markdown

  /** Animation frames run only when the test says (frame()). */
  let frames = new Map<number, () => void>()
  beforeEach(async () => {
    browser = installFakeBrowser()
    frames = new Map()
    let ids = 0
    Object.assign(globalThis, {
      requestAnimationFrame: (fn: () => void) => {
        frames.set(++ids, fn)
        return ids
      },
      cancelAnimationFrame: (id: number) => frames.delete(id),
    })
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    Markdown = (await import('./Markdown')).Markdown
    root = createRoot(browser.container as unknown as Element)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const show = (text: string) => React.act(() => root.render(React.createElement(Markdown, { text })))
  /** One animation frame and what React does in it. */
  const frame = () =>
    React.act(() => {
      const due = [...frames.values()]
      frames.clear()
      for (const fn of due) fn()
    })
  const md = () => browser.container.findAll((el) => el.getAttribute('class') === 'md')[0] as FakeElement
  const shownChars = () => md().textContent.length

  function paragraphs(n: number): string {
    return Array.from({ length: n }, (_, i) => `Paragraph ${i} with **bold** and \`code\` words.`).join('\n\n')
  }

  it('shows a small growth at once', async () => {
    await show('Hello')
    await show('Hello **world** and more')
    expect(md().textContent).toBe('Hello world and more')
    expect(md().getAttribute('data-revealing')).toBeNull()
  })

  it('spreads a backlog over frames and ends with the whole text', async () => {
    const full = paragraphs(600) // about 27 KB
    await show('Para')
    await show(full)
    expect(md().getAttribute('data-revealing')).toBe('true')
    let last = shownChars()
    expect(last).toBeLessThanOrEqual(FIRST_STEP + 10)
    let count = 0
    while (md().getAttribute('data-revealing') === 'true') {
      expect(frames.size, 'a frame is asked for').toBe(1)
      await frame()
      const now = shownChars()
      expect(now, 'each frame shows more').toBeGreaterThan(last)
      expect(now - last, 'at most a step per frame').toBeLessThanOrEqual(MAX_STEP)
      last = now
      if (++count > 100) throw new Error('the reveal does not end')
    }
    expect(count).toBeGreaterThanOrEqual(Math.floor(full.length / MAX_STEP) - 1)
    expect(count).toBeLessThanOrEqual(Math.ceil(full.length / MIN_STEP) + 1)
    expect(frames.size, 'no frame asked for once it is all shown').toBe(0)
    const shown = md().textContent
    // A fresh render of the whole text shows the same.
    await React.act(() => root.unmount())
    root = (await import('react-dom/client')).createRoot(browser.container as unknown as Element)
    await show(full)
    expect(md().getAttribute('data-revealing')).toBeNull()
    expect(md().textContent).toBe(shown)
  })

  it('keeps revealing while the text goes on growing', async () => {
    await show('Start')
    let text = 'Start'
    for (let i = 0; i < 5; i++) {
      text += '\n\n' + paragraphs(100)
      await show(text)
      await frame()
    }
    for (let i = 0; i < 100 && md().getAttribute('data-revealing') === 'true'; i++) await frame()
    expect(md().getAttribute('data-revealing')).toBeNull()
    expect(shownChars()).toBe(text.replace(/\*\*|`/g, '').replace(/\n\n/g, '').length)
  })

  it('shows a text that does not extend the last one whole', async () => {
    await show(paragraphs(10))
    const other = 'Replaced. ' + paragraphs(300)
    await show(other)
    expect(md().getAttribute('data-revealing')).toBeNull()
    expect(md().textContent.startsWith('Replaced.')).toBe(true)
  })

  it('reveals a live reply that mounts long from its first step', async () => {
    const full = paragraphs(300)
    await React.act(() => root.render(React.createElement(Markdown, { text: full, live: true })))
    expect(md().getAttribute('data-revealing')).toBe('true')
    expect(shownChars()).toBeLessThanOrEqual(FIRST_STEP)
    for (let i = 0; i < 100 && md().getAttribute('data-revealing') === 'true'; i++) await frame()
    expect(md().getAttribute('data-revealing')).toBeNull()
    const shown = md().textContent
    await React.act(() => root.unmount())
    root = (await import('react-dom/client')).createRoot(browser.container as unknown as Element)
    await show(full)
    expect(md().textContent).toBe(shown)
  })

  it('shows a live reply that mounts as one long paragraph whole', async () => {
    const long = 'word **bold** '.repeat(2000)
    await React.act(() => root.render(React.createElement(Markdown, { text: long, live: true })))
    expect(md().getAttribute('data-revealing')).toBeNull()
    expect(shownChars()).toBe(long.replace(/\*\*/g, '').trimEnd().length)
  })

  it('shows a first text whole (a saved message)', async () => {
    await show(paragraphs(300))
    expect(md().getAttribute('data-revealing')).toBeNull()
  })
})
