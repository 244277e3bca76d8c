// The controls of one MCP server: Restart, Enable/Disable (saved in
// wisp.json, keeping its secrets), Edit, and Remove after a confirm. One
// action at a time; a failure shows under the buttons.

import { useState } from 'react'
import type { McpServer } from '../api'
import { toggleEdit } from '../state/mcpForm'
import { useMcpStore } from '../state/useMcpServers'

type Busy = 'restart' | 'toggle' | 'remove' | null

interface Props {
  server: McpServer
  blocked: boolean
  onEdit(): void
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export function McpServerActions({ server, blocked, onEdit }: Props) {
  const store = useMcpStore()
  const [busy, setBusy] = useState<Busy>(null)
  const [error, setError] = useState<string | null>(null)
  const [confirming, setConfirming] = useState(false)
  const { name, config } = server

  const run = async (what: Exclude<Busy, null>, action: () => Promise<unknown>) => {
    setBusy(what)
    setError(null)
    try {
      await action()
    } catch (err) {
      setError(message(err))
    } finally {
      setBusy(null)
    }
  }
  const restart = () => run('restart', () => store?.restart(name) ?? Promise.resolve())
  const toggle = () => run('toggle', () => store?.save(name, toggleEdit(server, !config.disabled)) ?? Promise.resolve())
  const remove = () =>
    run('remove', async () => {
      setConfirming(false)
      await store?.remove(name)
    })

  const locked = busy !== null
  return (
    <>
      {confirming ? (
        <div className="confirm-delete mcp-confirm" role="group" aria-label={`Remove ${name}?`}>
          <span className="confirm-text">Remove {name} from wisp.json? Its tools go away.</span>
          <button type="button" className="danger" data-testid="mcp-remove-confirm" disabled={locked || blocked} onClick={() => void remove()}>
            Remove
          </button>
          <button type="button" data-testid="mcp-remove-cancel" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <div className="mcp-actions" role="group" aria-label={`${name}: actions`}>
          <button
            type="button"
            className="header-button"
            data-testid="mcp-restart"
            disabled={locked || config.disabled}
            onClick={() => void restart()}
          >
            {busy === 'restart' ? 'Restarting…' : 'Restart'}
          </button>
          <button
            type="button"
            className="header-button"
            data-testid="mcp-toggle"
            data-disabled={config.disabled ? 'true' : 'false'}
            disabled={locked || blocked}
            title={config.disabled ? 'Start it, and give its tools to the assistant' : 'Stop it, and take its tools away (saved in wisp.json)'}
            onClick={() => void toggle()}
          >
            {config.disabled ? 'Enable' : 'Disable'}
          </button>
          <button type="button" className="header-button" data-testid="mcp-edit" disabled={locked || blocked} onClick={onEdit}>
            Edit
          </button>
          <button type="button" className="header-button" data-testid="mcp-remove" disabled={locked || blocked} onClick={() => setConfirming(true)}>
            Remove
          </button>
        </div>
      )}
      {error !== null ? (
        <p className="setting-error" role="alert" data-testid="mcp-action-error">
          {error}
        </p>
      ) : null}
    </>
  )
}
