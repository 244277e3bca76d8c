import { describe, expect, it } from 'vitest'
import type { DesktopNotice, SystemBinding } from '../api/system'
import type { Notice } from './notify'
import { browserSink, desktopSink, type NotificationApi, type ShownNotification } from './notifySinks'

const notice: Notice = { key: 'message:m1', title: 'Reminder from Wisp', body: 'stretch', conversationId: 'c7' }

/** The desktop binding as a test drives it: notices sent, clicks waiting to be taken. */
function fakeSystem() {
  const sent: DesktopNotice[] = []
  const clicked: string[] = []
  const listeners = new Set<() => void>()
  const system: SystemBinding = {
    notify: async (n) => {
      sent.push(n)
    },
    openURL: async () => undefined,
    takeClicked: async () => clicked.shift() ?? '',
    onClicked: (fn) => {
      listeners.add(fn)
      return () => listeners.delete(fn)
    },
  }
  const click = (conversationId: string) => {
    clicked.push(conversationId)
    for (const fn of listeners) fn()
  }
  return { system, sent, click, listeners }
}

/** Resolves in a later task, once every promise callback queued so far has run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve))

describe('desktopSink', () => {
  it('sends the notice to the desktop with its conversation', async () => {
    const { system, sent } = fakeSystem()
    desktopSink(system).show(notice)
    await settle()
    expect(sent).toEqual([{ id: 'message:m1', title: 'Reminder from Wisp', body: 'stretch', conversationId: 'c7' }])
  })

  it('opens the conversation of a click, and of one that came before the page listened', async () => {
    const { system, click, listeners } = fakeSystem()
    click('early')
    const opened: string[] = []
    const off = desktopSink(system).onOpen((id) => opened.push(id))
    await settle()
    expect(opened).toEqual(['early'])
    click('c7')
    await settle()
    expect(opened).toEqual(['early', 'c7'])
    off()
    expect(listeners.size).toBe(0)
    click('c8')
    await settle()
    expect(opened).toEqual(['early', 'c7'])
  })
})

/** The browser's Notification as a test sees it: what was constructed, and the permission. */
function fakeNotifications(permission: NotificationPermission) {
  const shown: { title: string; options: NotificationOptions | undefined; closed: boolean; note: ShownNotification }[] = []
  class FakeNotification implements ShownNotification {
    static permission = permission
    static requestPermission = async () => permission
    onclick: ShownNotification['onclick'] = null
    constructor(title: string, options?: NotificationOptions) {
      const entry = { title, options, closed: false, note: this as ShownNotification }
      shown.push(entry)
      this.close = () => {
        entry.closed = true
      }
    }
    close(): void {}
  }
  return { api: FakeNotification as unknown as NotificationApi, shown }
}

describe('browserSink', () => {
  it('shows nothing without the permission, and never asks for it', () => {
    for (const permission of ['default', 'denied'] as const) {
      const { api, shown } = fakeNotifications(permission)
      let asked = false
      api.requestPermission = async () => {
        asked = true
        return permission
      }
      browserSink(api, () => undefined).show(notice)
      expect(shown).toEqual([])
      expect(asked).toBe(false)
    }
  })

  it('shows the notice, tagged by its event, and a click focuses the page and opens the conversation', () => {
    const { api, shown } = fakeNotifications('granted')
    let focused = 0
    const sink = browserSink(api, () => focused++)
    const opened: string[] = []
    sink.onOpen((id) => opened.push(id))
    sink.show(notice)
    expect(shown).toHaveLength(1)
    const [first] = shown
    expect(first?.title).toBe('Reminder from Wisp')
    expect(first?.options).toEqual({ body: 'stretch', tag: 'wisp-message:m1' })
    first?.note.onclick?.call(first.note, new Event('click'))
    expect(focused).toBe(1)
    expect(opened).toEqual(['c7'])
    expect(first?.closed).toBe(true)
  })
})
