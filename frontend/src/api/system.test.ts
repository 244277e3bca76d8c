import { describe, expect, it } from 'vitest'
import { NOTIFICATION_CLICKED_EVENT, desktopSystem, type DesktopNotice, type SystemHost } from './system'

describe('desktopSystem', () => {
  it('is absent in a browser tab, and while the binding lacks a method', () => {
    expect(desktopSystem({})).toBeUndefined()
    expect(desktopSystem({ go: { desktop: {} } })).toBeUndefined()
    expect(desktopSystem({ go: { desktop: { System: { Notify: async () => null } } } })).toBeUndefined()
  })

  it("calls the Go binding and listens for clicks on the Wails runtime's event", async () => {
    const notified: DesktopNotice[] = []
    const opened: string[] = []
    const events = new Map<string, () => void>()
    const host: SystemHost = {
      go: {
        desktop: {
          System: {
            Notify: async (n) => notified.push(n),
            OpenURL: async (u) => opened.push(u),
            TakeClicked: async () => 'c9',
          },
        },
      },
      runtime: {
        EventsOn: (name, fn) => {
          events.set(name, fn)
          return () => events.delete(name)
        },
      },
    }
    const system = desktopSystem(host)
    expect(system).toBeDefined()
    const notice = { id: 'approval:a1', title: 't', body: 'b', conversationId: 'c9' }
    await system?.notify(notice)
    await system?.openURL('https://example.com/')
    expect(notified).toEqual([notice])
    expect(opened).toEqual(['https://example.com/'])
    expect(await system?.takeClicked()).toBe('c9')

    let clicks = 0
    const off = system?.onClicked(() => clicks++)
    events.get(NOTIFICATION_CLICKED_EVENT)?.()
    expect(clicks).toBe(1)
    off?.()
    expect(events.has(NOTIFICATION_CLICKED_EVENT)).toBe(false)
  })

  it('reads an odd answer of TakeClicked as no click', async () => {
    const system = desktopSystem({
      go: { desktop: { System: { Notify: async () => null, OpenURL: async () => null, TakeClicked: async () => 42 } } },
    })
    expect(await system?.takeClicked()).toBe('')
  })
})
