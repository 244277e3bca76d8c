import './badges.css'
import { useAppState } from '../state/WispProvider'

export function AgentStateBadge() {
  const agentState = useAppState((s) => s.status?.state ?? 'unknown')
  return (
    <span className={`badge agent-${agentState}`} title="Agent state reported by the server">
      <span className="dot" aria-hidden="true" />
      <span className="badge-label">Agent</span>
      <span data-testid="agent-state">{agentState}</span>
    </span>
  )
}
