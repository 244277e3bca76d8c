// Below the notification setting: where notifications are shown, and in a
// browser tab the browser's permission, asked only when the user clicks
// "Turn on notifications" (browsers ignore, or hold against the page, a
// request that no click started).

import { useState } from 'react'
import { browserNotificationApi } from '../state/notifySinks'
import { useAppState } from '../state/WispProvider'

export function NotificationPermission() {
  const mode = useAppState((s) => s.mode)
  const notifications = browserNotificationApi()
  const [permission, setPermission] = useState(() => notifications?.permission ?? 'denied')
  const [asking, setAsking] = useState(false)
  if (mode === 'desktop') {
    return <Note>Shown by your desktop; a click opens the conversation.</Note>
  }
  if (mode !== 'browser') return null
  if (notifications === undefined) {
    return <Note>This browser cannot show notifications for this page.</Note>
  }
  if (permission === 'granted') {
    return <Note>This browser shows them; a click opens the conversation.</Note>
  }
  if (permission === 'denied') {
    return <Note>This browser blocks notifications for this page: allow them in its site settings.</Note>
  }
  const ask = () => {
    setAsking(true)
    notifications
      .requestPermission()
      .then(setPermission, (err: unknown) => console.warn('wisp: the notification permission request failed', err))
      .finally(() => setAsking(false))
  }
  return (
    <div className="setting-wide notification-permission">
      <button type="button" className="header-button" data-testid="notifications-permission" disabled={asking} onClick={ask}>
        Turn on notifications
      </button>
      <span className="hint"> This browser asks you once.</span>
    </div>
  )
}

function Note({ children }: { children: string }) {
  return (
    <p className="setting-wide hint" data-testid="notifications-state">
      {children}
    </p>
  )
}
