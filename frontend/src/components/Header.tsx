import { useWisp } from '../state/WispProvider'
import { ConnectionBadge } from './ConnectionBadge'
import { AgentStateBadge } from './AgentStateBadge'

export function Header() {
  const { status } = useWisp().state
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <h1 data-testid="agent-name">{status?.agentName || 'Wisp'}</h1>
        {status?.model ? <span className="model">{status.model}</span> : null}
      </div>
      <div className="header-badges">
        <AgentStateBadge />
        <ConnectionBadge />
      </div>
    </header>
  )
}
