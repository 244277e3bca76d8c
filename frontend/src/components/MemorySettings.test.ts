// Settings › Memory in a (fake) document, over the page's MemoryStore with a
// fake API: the editor shows the memory and its size against the bound,
// refuses to save over it, saves with the base version and says "Saved",
// says a 409 (changed elsewhere) and offers a reload instead of overwriting,
// takes a memory-updated frame when nothing is edited and says so when
// something is; the history lists versions, newest first, and Undo.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type Memory, type MemorySaveResult, type MemoryVersion } from '../api'
import { memoryExample as memory, memoryHistoryExample as history } from '../api/memory.test-util'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, typeInto } from '../state/fakeEvents.test-util'
import { routeFrame } from '../state/frameTable'
import { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

describe('MemorySettings', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let page: WispPage
  let api: {
    get: ReturnType<typeof vi.fn<() => Promise<Memory>>>
    save: ReturnType<typeof vi.fn<(text: string, base: number) => Promise<MemorySaveResult>>>
    history: ReturnType<typeof vi.fn<() => Promise<MemoryVersion[]>>>
    undo: ReturnType<typeof vi.fn<() => Promise<Memory>>>
  }

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    const { MemorySettings } = await import('./MemorySettings')
    const { WispContext } = await import('../state/wispContext')
    page = new WispPage(() => () => undefined)
    api = {
      get: vi.fn(async () => memory),
      save: vi.fn(async (text: string, base: number) => ({ ok: true as const, memory: { ...memory, text, version: base + 1 } })),
      history: vi.fn(async () => history),
      undo: vi.fn(async () => ({ ...memory, text: '# About the user\n', version: 4 })),
    }
    page.memory.setApi(api)
    root = createRoot(browser.container as unknown as Element)
    await React.act(async () => root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(MemorySettings))))
    await React.act(async () => vi.waitFor(() => expect(page.memory.get().history).not.toBeNull()))
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const one = (testId: string): FakeElement => {
    const found = browser.container.byTestId(testId)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }
  const none = (testId: string) => expect(browser.container.byTestId(testId), testId).toHaveLength(0)
  const type = (text: string) => React.act(() => typeInto(browser.container, one('memory-text'), text))
  const press = (testId: string) => React.act(async () => click(browser.container, one(testId)))

  it('shows the memory, its size against the bound, and nothing to save yet', () => {
    expect(one('memory-text').value).toBe(memory.text)
    expect(one('memory-bytes').textContent).toBe(`${memory.text.length} of ${(16384).toLocaleString()} bytes`)
    expect(one('memory-save-text').hasAttribute('disabled')).toBe(true)
    expect(one('memory-revert').hasAttribute('disabled')).toBe(true)
    expect(one('memory-status').getAttribute('role')).toBe('status')
  })

  it('saves an edit with the version it was made from, then says Saved', async () => {
    await type('# Me\n- tea, not coffee\n')
    expect(one('memory-status').textContent).toBe('Unsaved changes')
    await press('memory-save-text')
    expect(api.save.mock.calls).toEqual([['# Me\n- tea, not coffee\n', 3]])
    expect(one('memory-status').textContent).toBe('Saved.')
    expect(one('memory-editor').getAttribute('data-version')).toBe('4')
  })

  it('Revert drops the edit', async () => {
    await type('oops')
    await press('memory-revert')
    expect(one('memory-text').value).toBe(memory.text)
    expect(one('memory-status').textContent).toBe('')
  })

  it('refuses to save over the size bound, and says so', async () => {
    api.get.mockResolvedValue({ ...memory, maxBytes: 10 })
    await React.act(() => page.memory.load())
    await type('ééééé€') // 13 bytes
    expect(one('memory-bytes').textContent).toBe('13 of 10 bytes: too long to save')
    expect(one('memory-bytes').getAttribute('data-over')).toBe('true')
    expect(one('memory-text').getAttribute('aria-invalid')).toBe('true')
    expect(one('memory-save-text').hasAttribute('disabled')).toBe(true)
    await press('memory-save-text')
    expect(api.save).not.toHaveBeenCalled()
  })

  it('says so when the memory changed elsewhere (409) and reloads only when asked', async () => {
    api.save.mockResolvedValueOnce({ ok: false, error: 'the memory changed since version 3' })
    await type('mine')
    await press('memory-save-text')
    expect(one('memory-conflict').textContent).toContain('the memory changed since version 3')
    expect(one('memory-conflict').getAttribute('role')).toBe('alert')
    expect(one('memory-text').value).toBe('mine')
    api.get.mockResolvedValueOnce({ ...memory, text: 'theirs', version: 5 })
    await press('memory-reload')
    await React.act(async () => vi.waitFor(() => expect(one('memory-text').value).toBe('theirs')))
    none('memory-conflict')
  })

  it('shows a memory-updated frame at once when nothing is edited', async () => {
    await React.act(() => routeFrame(page, { type: 'memory-updated', memory: { ...memory, text: 'remembered by Wisp', version: 4 } }))
    expect(one('memory-text').value).toBe('remembered by Wisp')
    none('memory-newer')
  })

  it('keeps an edit when a frame brings a newer memory, and says so', async () => {
    await type('my edit')
    await React.act(() => routeFrame(page, { type: 'memory-updated', memory: { ...memory, text: 'remembered by Wisp', version: 4 } }))
    expect(one('memory-text').value).toBe('my edit')
    expect(one('memory-newer').textContent).toContain('changed elsewhere')
    await press('memory-reload')
    expect(one('memory-text').value).toBe('remembered by Wisp')
    none('memory-newer')
  })

  it('lists the history newest first, each with its source and text, and undoes the last change', async () => {
    const rows = browser.container.byTestId('memory-version')
    expect(rows.map((r) => [r.getAttribute('data-version'), r.getAttribute('data-source')])).toEqual([
      ['3', 'agent'],
      ['2', 'user'],
      ['1', 'undo'],
    ])
    expect(rows[0]?.textContent).toContain('Wisp')
    expect(rows[1]?.textContent).toContain('You')
    expect(browser.container.byTestId('memory-version-text').map((t) => t.textContent)).toEqual([memory.text, '# About the user\n', '(empty)'])
    // Each version is a disclosure: keyboard and screen readers know it.
    expect(rows[0]?.findAll((e) => e.tagName === 'DETAILS')).toHaveLength(1)
    await press('memory-undo')
    expect(api.undo).toHaveBeenCalledTimes(1)
    expect(one('memory-text').value).toBe('# About the user\n')
  })

  it('says when there is nothing to undo', async () => {
    api.undo.mockRejectedValueOnce(new ApiError(409, 'nothing to undo'))
    await press('memory-undo')
    expect(one('memory-error').textContent).toBe('There is no earlier version to go back to.')
  })
})
