import './Header.css'
import { useMemo } from 'react'
import { useAppState, useWisp } from '../state/WispProvider'
import { isMacPlatform, keysOf } from '../state/shortcuts'
import { ConnectionBadge } from './ConnectionBadge'
import { AgentStateBadge } from './AgentStateBadge'
import { AutonomyBadge } from './AutonomyBadge'
import { Icon } from './Icon'

interface Props {
  activityOpen: boolean
  onToggleActivity(): void
  terminalOpen: boolean
  onToggleTerminal(): void
  avatarOpen: boolean
  onToggleAvatar(): void
  emotesOpen: boolean
  onToggleEmotes(): void
  settingsOpen: boolean
  onToggleSettings(): void
}

export function Header(props: Props) {
  const { activityOpen, onToggleActivity, terminalOpen, onToggleTerminal } = props
  const { setProviderSetupOpen } = useWisp()
  const agentName = useAppState((s) => s.status?.agentName)
  const model = useAppState((s) => s.status?.model)
  const canRespond = useAppState((s) => s.status?.canRespond === true)
  const providerSetupOpen = useAppState((s) => s.providerSetupOpen)
  const shortcut = useMemo(() => keysOf('emotes', isMacPlatform()), [])
  return (
    <header className="app-header">
      <div className="brand">
        <span className="brand-mark" aria-hidden="true" />
        <h1 data-testid="agent-name">{agentName || 'Wisp'}</h1>
        {model ? <span className="model">{model}</span> : null}
      </div>
      <div className="header-badges">
        {canRespond ? (
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
          data-testid="emote-button"
          aria-haspopup="dialog"
          aria-expanded={props.emotesOpen}
          title={`Play an emote (${shortcut})`}
          onClick={props.onToggleEmotes}
        >
          Emotes
        </button>
        <button
          type="button"
          className="header-button"
          data-testid="avatar-toggle"
          aria-pressed={props.avatarOpen}
          title={props.avatarOpen ? 'Hide the avatar' : 'Show the avatar'}
          onClick={props.onToggleAvatar}
        >
          Avatar
        </button>
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
          className="header-button settings-toggle"
          data-testid="settings-toggle"
          aria-haspopup="dialog"
          aria-expanded={props.settingsOpen}
          aria-label="Settings"
          title={props.settingsOpen ? 'Close the settings' : 'Settings'}
          onClick={props.onToggleSettings}
        >
          <Icon name="sliders" />
          <span className="settings-toggle-label">Settings</span>
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
        <AutonomyBadge />
        <AgentStateBadge />
        <ConnectionBadge />
      </div>
    </header>
  )
}
