// Where the UI's notices are shown (notify.ts decides which): the desktop's
// own notifications through the window's System binding, or the browser's
// Notification API in a tab of `wisp serve`. A click on one opens the
// conversation it is about: the browser's focuses this tab; the desktop's
// brings the window forward in Go (app/system.go) and says so with an event,
// and the page then asks which conversation.

import type { SystemBinding } from '../api/system'
import type { Notice } from './notify'

export interface NoticeSink {
  show(notice: Notice): void
  /** open is called with the conversation of each notification clicked; returns the unsubscribe. */
  onOpen(open: (conversationId: string) => void): () => void
}

export function desktopSink(system: SystemBinding): NoticeSink {
  return {
    show(notice) {
      const { key, title, body, conversationId } = notice
      system
        .notify({ id: key, title, body, conversationId })
        .catch((err: unknown) => console.warn('wisp: the desktop notification failed', err))
    },
    onOpen(open) {
      let live = true
      const take = () => {
        system.takeClicked().then(
          (id) => {
            if (live && id !== '') open(id)
          },
          (err: unknown) => console.warn('wisp: cannot read the notification clicked', err),
        )
      }
      // A click may have come before this page listened (it opened the window).
      take()
      const off = system.onClicked(take)
      return () => {
        live = false
        off()
      }
    },
  }
}

/** The part of the browser's Notification a notification uses. */
export interface ShownNotification {
  onclick: ((this: ShownNotification, ev: Event) => unknown) | null
  close(): void
}

/** The browser's Notification constructor, as far as this file uses it. */
export interface NotificationApi {
  readonly permission: NotificationPermission
  requestPermission(): Promise<NotificationPermission>
  new (title: string, options?: NotificationOptions): ShownNotification
}

/** The page's Notification API, or undefined where there is none (WebKitGTK, an insecure origin). */
export function browserNotificationApi(): NotificationApi | undefined {
  return typeof Notification === 'undefined' ? undefined : (Notification as unknown as NotificationApi)
}

export function browserSink(api: NotificationApi, focusPage: () => void): NoticeSink {
  const opens = new Set<(conversationId: string) => void>()
  return {
    show(notice) {
      // Never asked from here: permission comes from a click in Settings.
      if (api.permission !== 'granted') return
      try {
        // The tag makes a second tab's notice for the same event replace this one.
        const shown = new api(notice.title, { body: notice.body, tag: `wisp-${notice.key}` })
        shown.onclick = () => {
          focusPage()
          for (const open of opens) open(notice.conversationId)
          shown.close()
        }
      } catch (err) {
        console.warn('wisp: the browser notification failed', err)
      }
    },
    onOpen(open) {
      opens.add(open)
      return () => {
        opens.delete(open)
      }
    },
  }
}
