// The whole app on a long conversation (fake server, no layout): it draws only
// the last rows of the newest page, says earlier messages are loading, and a
// search result far up opens its branch, loads the page around it and marks
// the message.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { startApp, type MountedApp } from './appHarness.test-util'
import { FakeServer } from './fakeServer.test-util'
import type { BareMessage } from './messages.test-util'
import { PAGE_SIZE } from './messageWindow'
import { FIRST_ROWS } from '../components/useMessageWindow'

vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))
vi.mock('../components/SettingsPanel', () => ({ SettingsPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const mid = (i: number) => `m${String(i).padStart(5, '0')}`
const history: BareMessage[] = Array.from({ length: 1000 }, (_, i) => ({
  id: mid(i),
  role: i % 2 === 0 ? 'user' : 'assistant',
  text: `message ${i}`,
  timestamp: i,
}))

const drawn = (a: MountedApp) => a.root.byTestId('message').map((el) => el.getAttribute('data-message-id'))

describe('a long conversation in the app', () => {
  let app: MountedApp | null = null
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  function server(): FakeServer {
    const s = new FakeServer()
    s.conversations = [{ id: CONV, title: 'Long', roomId: '', createdAt: at, updatedAt: at, unread: false }]
    s.messages.set(CONV, history)
    return s
  }

  it('draws the last rows of the newest page, and a search result far up opens at its message', async () => {
    const s = server()
    const a = (app = await startApp(s, { id: CONV, bubbles: FIRST_ROWS, rows: 1 }))
    expect(drawn(a).at(-1)).toBe(mid(999))
    expect(drawn(a)[0]).toBe(mid(1000 - FIRST_ROWS))
    expect(a.root.byTestId('messages-older')).toHaveLength(1)
    expect(s.count('GET', `/api/conversations/${CONV}/messages?limit=${PAGE_SIZE}`)).toBe(1)

    await a.act(() => {
      a.chat().show(CONV, mid(10))
      a.focus().show(CONV, mid(10))
    })
    await a.until(() => a.root.byTestId('message').some((el) => el.getAttribute('data-found') === 'true'), 'the found message')
    const found = a.root.byTestId('message').find((el) => el.getAttribute('data-found') === 'true')
    expect(found?.getAttribute('data-message-id')).toBe(mid(10))
    expect(s.count('PUT', `/api/conversations/${CONV}/branch`)).toBe(1)
    expect(s.count('GET', `/api/conversations/${CONV}/messages?around=${mid(10)}&limit=${PAGE_SIZE}`)).toBe(1)
    // The page around it is the first: nothing before it, later messages to come.
    expect(a.root.byTestId('messages-older')).toHaveLength(0)
    expect(a.root.byTestId('messages-newer')).toHaveLength(1)
    expect(a.focus().get()).toBeNull()
  })
})
