// Notifications from React (notify.ts decides, notifySinks.ts shows): takes
// the proactive-message and approval frames of /ws, follows ui.notifications
// (read with the theme, useTheme.ts), and opens the conversation of a
// notification that was clicked. <html data-notifications="on|off"> says
// whether the setting is in effect in this page.

import { useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { Approval, ConnectionMode, ProactiveMessageFrame, Unsubscribe } from '../api'
import { desktopSystem } from '../api/system'
import { Notifier, approvalNotice, pageAway, proactiveNotice } from './notify'
import { browserNotificationApi, browserSink, desktopSink, type NoticeSink } from './notifySinks'

export interface NotificationFeeds {
  /** ui.notifications (off until the config has been read). */
  enabled: boolean
  /** desktop or browser, once the connection is known. */
  mode: ConnectionMode | null
  agentName(): string
  /** The conversation open now (a click on its own notification leaves it as it is). */
  openConversationId(): string | null
  open(conversationId: string): void
  onProactive(fn: (frame: ProactiveMessageFrame) => void): Unsubscribe
  onApproval(fn: (approval: Approval) => void): Unsubscribe
}

export function useNotifications(feeds: NotificationFeeds): void {
  const { enabled, mode, onProactive, onApproval } = feeds
  const latest = useRef(feeds)
  useLayoutEffect(() => {
    latest.current = feeds
  })
  const sink = useSink(mode)
  const sinkRef = useRef(sink)
  sinkRef.current = sink
  const [notifier] = useState(
    () =>
      new Notifier({
        enabled: () => latest.current.enabled,
        away: () => pageAway(document),
        show: (notice) => sinkRef.current?.show(notice),
      }),
  )

  useEffect(() => {
    document.documentElement.dataset.notifications = enabled ? 'on' : 'off'
  }, [enabled])
  useEffect(
    () => onProactive((frame) => notifier.offer(proactiveNotice(frame, latest.current.agentName()))),
    [onProactive, notifier],
  )
  useEffect(
    () => onApproval((approval) => notifier.offer(approvalNotice(approval, latest.current.agentName()))),
    [onApproval, notifier],
  )
  useEffect(() => {
    if (sink === undefined) return
    return sink.onOpen((id) => {
      if (id !== latest.current.openConversationId()) latest.current.open(id)
    })
  }, [sink])
}

/** The sink of this page: the desktop binding's, the browser's, or none yet. */
function useSink(mode: ConnectionMode | null): NoticeSink | undefined {
  const [sink, setSink] = useState<NoticeSink | undefined>(undefined)
  useEffect(() => {
    if (mode === 'desktop') {
      const system = desktopSystem()
      setSink(system === undefined ? undefined : desktopSink(system))
    } else if (mode === 'browser') {
      const notifications = browserNotificationApi()
      setSink(notifications === undefined ? undefined : browserSink(notifications, () => window.focus()))
    }
  }, [mode])
  return sink
}
