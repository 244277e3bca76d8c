// The desktop window's System binding (app/desktop/system.go, bound as
// window.go.desktop.System): the system's notifications, links opened in the
// system browser, and which conversation the last notification clicked is
// about (the window hears of a click through the Wails runtime's event
// "wisp:notification-clicked"). A browser tab has none of it (undefined).

/** A notification the desktop shows. */
export interface DesktopNotice {
  /** Names the event notified about (a second notice with the same id replaces nothing: it is one event). */
  id: string
  title: string
  body: string
  /** The conversation a click opens. */
  conversationId: string
}

export interface SystemBinding {
  notify(notice: DesktopNotice): Promise<void>
  /** Opens an http, https or mailto URL in the system's browser or mail program; rejects any other. */
  openURL(url: string): Promise<void>
  /** The conversation of the last notification clicked ('' when none), forgotten once taken. */
  takeClicked(): Promise<string>
  /** Calls fn after each click on a notification (then takeClicked says where to go). */
  onClicked(fn: () => void): () => void
}

/** The event the desktop emits when a notification was clicked. */
export const NOTIFICATION_CLICKED_EVENT = 'wisp:notification-clicked'

interface RawSystem {
  Notify?(notice: DesktopNotice): Promise<unknown>
  OpenURL?(url: string): Promise<unknown>
  TakeClicked?(): Promise<unknown>
}

interface WailsRuntime {
  EventsOn?(name: string, fn: (...data: unknown[]) => void): () => void
}

/** What desktopSystem reads: the page's window, or a test's stand-in. */
export interface SystemHost {
  go?: { desktop?: { System?: RawSystem } }
  runtime?: WailsRuntime
}

/** The binding when the page runs in the desktop window, else undefined. */
export function desktopSystem(host: SystemHost = window as unknown as SystemHost): SystemBinding | undefined {
  const raw = host.go?.desktop?.System
  const notify = raw?.Notify
  const openURL = raw?.OpenURL
  const takeClicked = raw?.TakeClicked
  if (typeof notify !== 'function' || typeof openURL !== 'function' || typeof takeClicked !== 'function') return undefined
  return {
    notify: async (notice) => {
      await notify(notice)
    },
    openURL: async (url) => {
      await openURL(url)
    },
    takeClicked: async () => {
      const id = await takeClicked()
      return typeof id === 'string' ? id : ''
    },
    onClicked: (fn) => {
      const on = host.runtime?.EventsOn
      if (typeof on !== 'function') return () => undefined
      const off = on(NOTIFICATION_CLICKED_EVENT, () => fn())
      return typeof off === 'function' ? off : () => undefined
    },
  }
}
