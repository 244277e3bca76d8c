// Settings › Files and web in a (fake) document over a fake settings API:
// no folder by default says there is no file access; folders and hosts are
// added (checked first) and removed; Save sends only what changed, lists
// whole and the search key write-only; the server's refusal shows inline.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, DEFAULT_CONFIG, type ApiClient, type ConfigSnapshot, type MergePatch } from '../api'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, selectOption, typeInto } from '../state/fakeEvents.test-util'
import { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

const snapshot = (over: Partial<ConfigSnapshot> = {}): ConfigSnapshot => ({
  path: '/home/ada/.local/state/wisp/wisp.json',
  config: DEFAULT_CONFIG,
  secrets: {},
  secretStore: null,
  fields: [],
  overrides: {},
  configError: '',
  pendingRestart: false,
  pendingRestartReasons: [],
  ...over,
})

describe('HandsSettings', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let page: WispPage
  let patchConfig: ReturnType<typeof vi.fn<(patch: MergePatch) => Promise<ConfigSnapshot>>>
  let reload: ReturnType<typeof vi.fn<() => void>>
  let render: (snap: ConfigSnapshot) => Promise<void>

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    const { HandsSettings } = await import('./HandsSettings')
    const { WispContext } = await import('../state/wispContext')
    page = new WispPage(() => () => undefined)
    patchConfig = vi.fn(async () => snapshot())
    reload = vi.fn<() => void>()
    page.api.set({ patchConfig } as unknown as ApiClient)
    root = createRoot(browser.container as unknown as Element)
    render = (snap) =>
      React.act(async () =>
        root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(HandsSettings, { snap, disabled: false, reload }))),
      )
    await render(snapshot())
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const all = (testId: string) => browser.container.byTestId(testId)
  const one = (testId: string): FakeElement => {
    const found = all(testId)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }
  const type = (testId: string, text: string) => React.act(() => typeInto(browser.container, one(testId), text))
  const press = (el: FakeElement) => React.act(async () => click(browser.container, el))

  it('says that no folder means no file access, and nothing is to save', () => {
    expect(one('files-roots-empty').textContent).toContain('cannot read or change any file')
    expect(one('web-allowHosts-empty').textContent).toContain('are refused')
    expect(one('hands-save').hasAttribute('disabled')).toBe(true)
    expect(all('web-search-apiKey')).toHaveLength(0)
  })

  it('adds folders (Enter or Add) and hosts, refuses a relative folder, and saves the lists whole', async () => {
    await type('files-roots-input', 'project')
    await press(one('files-roots-add'))
    expect(one('files-roots-error').textContent).toContain('absolute path')
    await type('files-roots-input', '/home/ada/project/')
    await React.act(() => keyDown(browser.container, one('files-roots-input'), 'Enter'))
    await type('files-roots-input', '/srv/notes')
    await press(one('files-roots-add'))
    expect(all('files-roots-item').map((li) => li.findAll((e) => e.tagName === 'CODE')[0]?.textContent)).toEqual(['/home/ada/project', '/srv/notes'])
    await press(all('files-roots-item')[1]!.findAll((e) => e.tagName === 'BUTTON')[0]!)
    await type('web-allowHosts-input', 'NAS.local')
    await press(one('web-allowHosts-add'))
    await press(one('hands-save'))
    expect(patchConfig.mock.calls).toEqual([[{ files: { roots: ['/home/ada/project'] }, web: { allowHosts: ['nas.local'] } }]])
    expect(one('hands-note').textContent).toContain('Saved.')
    expect(reload).toHaveBeenCalledTimes(1)
  })

  it('sets up Brave search with a write-only key, and shows the server’s refusal', async () => {
    await React.act(() => selectOption(browser.container, one('web-search-provider'), 'brave'))
    expect(one('web-search-key-state').textContent).toBe('No key is saved.')
    await type('web-search-apiKey', 'BSA-secret')
    patchConfig.mockRejectedValueOnce(new ApiError(400, 'web.search.apiKey is longer than 4096 bytes'))
    await press(one('hands-save'))
    expect(patchConfig.mock.calls[0]?.[0]).toEqual({ web: { search: { provider: 'brave', apiKey: 'BSA-secret' } } })
    expect(one('hands-note').textContent).toBe('web.search.apiKey is longer than 4096 bytes')
    expect(one('hands-note').getAttribute('role')).toBe('alert')
  })

  it('asks SearXNG for its server, and removes a saved key with null', async () => {
    const config = { ...DEFAULT_CONFIG, web: { allowHosts: [], search: { provider: 'brave' as const, baseURL: '' } } }
    await render(snapshot({ config, secrets: { 'web.search.apiKey': true } }))
    expect(one('web-search-key-state').textContent).toBe('A key is saved. It is never shown.')
    await press(one('web-search-remove-key'))
    await React.act(() => selectOption(browser.container, one('web-search-provider'), 'searxng'))
    await type('web-search-baseURL', ' http://127.0.0.1:8888 ')
    await press(one('hands-save'))
    expect(patchConfig.mock.calls[0]?.[0]).toEqual({ web: { search: { provider: 'searxng', baseURL: 'http://127.0.0.1:8888', apiKey: null } } })
  })
})
