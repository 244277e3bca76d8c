import './badges.css'
import { useAppState } from '../state/WispProvider'

const HINTS = {
  connecting: 'Connecting to the Wisp server…',
  connected: 'Live updates are flowing.',
  reconnecting: 'Connection lost; retrying with backoff.',
  offline: 'Server unreachable; probing every 30 seconds.',
} as const

export function ConnectionBadge() {
  const connection = useAppState((s) => s.connection)
  return (
    <span className={`badge conn-${connection}`} title={HINTS[connection]}>
      <span className="dot" aria-hidden="true" />
      <span className="badge-label">Server</span>
      <span data-testid="conn-state">{connection}</span>
    </span>
  )
}
