// "Open Wisp when I log in" in the settings view, on the whole app against a
// fake server: the switch shows what the server says of the autostart entry on
// disk, and saving it sends desktop.openAtLogin as a merge patch.

import { afterEach, describe, expect, it, vi } from 'vitest'
import goldenFile from '../api/testdata/wire.golden.json'
import { startApp, type MountedApp } from './appHarness.test-util'
import type { FakeElement } from './fakeDom.test-util'
import { click } from './fakeEvents.test-util'
import { FakeServer, json } from './fakeServer.test-util'
import { onBranch } from './messages.test-util'

vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const history = onBranch([
  { id: 'u1', role: 'user', text: 'hello', timestamp: 1, source: 'chat' },
  { id: 'a1', role: 'assistant', text: 'hi', timestamp: 2, status: 'ended', source: 'chat' },
])
const SWITCH = 'setting-desktop.openAtLogin'

type View = { config: Record<string, Record<string, unknown>>; configError: string; [k: string]: unknown }
const golden = goldenFile as unknown as { shapes: { ConfigView: View[] } }

/** The fake server with a settings file: GET /api/config shows the entry on disk, PUT merges the patch. */
class SettingsServer extends FakeServer {
  /** Whether the autostart entry is on disk, as the real server reads it for every answer. */
  entry: boolean

  constructor(entry: boolean) {
    super()
    this.entry = entry
    this.conversations = [{ id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false }]
    this.messages.set(CONV, history)
    const others = this.fetch
    const fetchWithConfig: typeof fetch = async (input, init) => {
      const url = new URL(String(input))
      return url.pathname === '/api/config' ? this.config(init) : others(input, init)
    }
    Object.defineProperty(this, 'fetch', { value: fetchWithConfig })
  }

  view(): View {
    const v = structuredClone(golden.shapes.ConfigView[0]!)
    v.config.desktop = { openAtLogin: this.entry }
    return { ...v, configError: '', pendingRestart: false, pendingRestartReasons: [] }
  }

  private config(init: RequestInit | undefined): Response {
    const method = init?.method ?? 'GET'
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined
    this.requests.push({ method, path: '/api/config', body })
    if (method === 'PUT') {
      const on = (body as { desktop?: { openAtLogin?: unknown } }).desktop?.openAtLogin
      if (typeof on === 'boolean') this.entry = on
    }
    return json(200, this.view())
  }
}

const one = (root: FakeElement, testId: string): FakeElement => {
  const found = root.byTestId(testId)
  if (found.length !== 1) throw new Error(`${found.length} elements with data-testid=${testId}`)
  return found[0]!
}

const checked = (el: FakeElement): boolean => (el as unknown as { checked?: boolean }).checked === true

/** A click on a checkbox: the browser flips it before the event, as React expects. */
function toggle(root: FakeElement, input: FakeElement): void {
  const box = input as unknown as { checked?: boolean }
  box.checked = box.checked !== true
  click(root, input)
}

function submit(root: FakeElement, form: FakeElement): void {
  root.dispatchEvent({ type: 'submit', target: form, bubbles: true, cancelable: true, preventDefault() {}, stopPropagation() {} } as never)
}

describe('open Wisp when I log in', () => {
  let app: MountedApp | null = null
  afterEach(async () => {
    await app?.unmount()
    app = null
  })

  async function openSettings(server: SettingsServer): Promise<MountedApp> {
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    await a.act(() => click(a.root, one(a.root, 'settings-toggle')))
    await a.until(() => a.root.byTestId(SWITCH).length === 1, 'the switch')
    return a
  }

  it('shows the entry on disk and switches it off and on through a saved patch', async () => {
    const server = new SettingsServer(true)
    const a = await openSettings(server)
    expect(checked(one(a.root, SWITCH))).toBe(true)
    expect(one(a.root, 'settings-section-login').textContent).toContain('Open Wisp when I log in')

    await a.act(() => toggle(a.root, one(a.root, SWITCH)))
    expect(checked(one(a.root, SWITCH))).toBe(false)
    await a.act(() => submit(a.root, one(a.root, 'settings')))
    await a.until(() => server.count('PUT', '/api/config') === 1 && a.root.byTestId('settings-saved').length === 1, 'the save')
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ desktop: { openAtLogin: false } })
    expect(server.entry).toBe(false)
    expect(checked(one(a.root, SWITCH))).toBe(false)

    await a.act(() => toggle(a.root, one(a.root, SWITCH)))
    await a.act(() => submit(a.root, one(a.root, 'settings')))
    await a.until(() => server.count('PUT', '/api/config') === 2, 'the second save')
    expect(server.requests.filter((r) => r.method === 'PUT')[1]?.body).toEqual({ desktop: { openAtLogin: true } })
    await a.until(() => checked(one(a.root, SWITCH)), 'the switch on')
  })

  it('follows the entry on disk when the settings are read again', async () => {
    const server = new SettingsServer(true)
    const a = await openSettings(server)
    expect(checked(one(a.root, SWITCH))).toBe(true)
    // Deleted by hand: the file still asks for it, the server reports the disk.
    server.entry = false
    await a.act(() => a.sockets[0]!.receive({ type: 'config-changed', paths: ['character.name'] }))
    await a.until(() => !checked(one(a.root, SWITCH)), 'the switch off')
    // Nothing was edited: there is nothing to save.
    expect(one(a.root, 'settings-save').getAttribute('disabled')).not.toBeNull()
  })
})
