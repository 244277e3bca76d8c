import { useWisp } from '../state/WispProvider'
import { ConnectionBadge } from './ConnectionBadge'
import { AgentStateBadge } from './AgentStateBadge'

interface Props {
  activityOpen: boolean
  onToggleActivity(): void
  terminalOpen: boolean
  onToggleTerminal(): void
}

export function Header({ activityOpen, onToggleActivity, terminalOpen, onToggleTerminal }: Props) {
  const { state, setProviderSetupOpen } = useWisp()
  const { status, providerSetupOpen } = state
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <h1 data-testid="agent-name">{status?.agentName || 'Wisp'}</h1>
        {status?.model ? <span className="model">{status.model}</span> : null}
      </div>
      <div className="header-badges">
        {status?.canRespond ? (
          <button
            type="button"
            className="header-button"
            data-testid="model-button"
            aria-pressed={providerSetupOpen}
            title="Choose the model provider"
            onClick={() => setProviderSetupOpen(!providerSetupOpen)}
          >
            Model
          </button>
        ) : null}
        <button
          type="button"
          className="header-button"
          data-testid="terminal-toggle"
          aria-pressed={terminalOpen}
          aria-controls="terminal-panel"
          title={terminalOpen ? 'Close the terminal' : 'Open the terminal'}
          onClick={onToggleTerminal}
        >
          Terminal
        </button>
        <button
          type="button"
          className="header-button activity-toggle"
          data-testid="activity-toggle"
          aria-pressed={activityOpen}
          aria-controls="activity-panel"
          onClick={onToggleActivity}
        >
          Activity
        </button>
        <AgentStateBadge />
        <ConnectionBadge />
      </div>
    </header>
  )
}
