// Restart-only settings were saved: says which, and restarts Wisp on request
// ("Later" hides it until the reasons change). While restarting the button
// waits; a refusal (409: already restarting, or the new settings cannot be
// applied and the old ones keep running) is shown here.

import './RestartBanner.css'
import { useAppState, useWisp } from '../state/WispProvider'
import { restartBannerVisible } from '../state/reducer'

const NONE: string[] = []

export function RestartBanner() {
  const { restartAgent, dismissRestart } = useWisp()
  const visible = useAppState(restartBannerVisible)
  const { restarting, error } = useAppState((s) => s.restart)
  const reasons = useAppState((s) => (s.status?.pendingRestart ? s.status.pendingRestartReasons : NONE))
  if (!visible) return null
  return (
    <div className="notice notice-warn restart-banner" data-testid="restart-banner" role="status">
      <div className="restart-text">
        <strong>{restarting ? 'Restarting Wisp…' : 'Restart Wisp to apply your changes.'}</strong>
        {reasons.length > 0 ? (
          <ul className="restart-reasons" data-testid="restart-reasons">
            {reasons.map((r) => (
              <li key={r}>{r}</li>
            ))}
          </ul>
        ) : null}
        {error !== null ? (
          <p className="restart-error" role="alert" data-testid="restart-error">
            The restart did not happen: {error}
          </p>
        ) : null}
      </div>
      <div className="restart-actions">
        <button
          type="button"
          className="restart-now"
          data-testid="restart-now"
          disabled={restarting}
          onClick={() => void restartAgent()}
        >
          {restarting ? 'Restarting…' : 'Restart now'}
        </button>
        <button
          type="button"
          className="header-button"
          data-testid="restart-later"
          disabled={restarting}
          onClick={dismissRestart}
        >
          Later
        </button>
      </div>
    </div>
  )
}
