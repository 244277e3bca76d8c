import './badges.css'
import { useAppState } from '../state/WispProvider'
import { Icon } from './Icon'

/** "Autonomy on" in the header while the autonomy loop may speak up (only the spark in narrow windows); nothing when it is off. */
export function AutonomyBadge() {
  const enabled = useAppState((s) => s.status?.autonomyEnabled === true)
  if (!enabled) return null
  return (
    <span
      className="badge autonomy-on"
      data-testid="autonomy-indicator"
      role="status"
      aria-label="Autonomy on"
      title="Autonomy is on: the assistant may speak up on its own (Settings › Autonomy)"
    >
      <Icon name="spark" />
      <span className="autonomy-label">Autonomy on</span>
    </span>
  )
}
