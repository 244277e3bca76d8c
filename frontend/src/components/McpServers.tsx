// Settings › Tools: the MCP servers of wisp.json (mcpServers), each with its
// status, tools and controls, and "Add server". Loaded when the settings
// open and kept live by the mcp-servers frames (McpStore). Changes write
// wisp.json, so they wait while the file has an error (blocked); a restart
// does not.

import './mcp.css'
import { useEffect, useState } from 'react'
import { useMcpServers, useMcpStore } from '../state/useMcpServers'
import { McpServerForm } from './McpServerForm'
import { McpServerItem } from './McpServerItem'

/** Which form is open: none, "Add server", or the edit of the named server. */
type Editing = { kind: 'none' } | { kind: 'new' } | { kind: 'edit'; name: string }

export function McpServers({ blocked }: { blocked: boolean }) {
  const store = useMcpStore()
  const { servers, loadError } = useMcpServers()
  const [editing, setEditing] = useState<Editing>({ kind: 'none' })
  useEffect(() => {
    void store?.load()
  }, [store])
  // A server removed (here or elsewhere) while its form was open takes the form with it.
  const editedGone = editing.kind === 'edit' && servers !== null && !servers.some((s) => s.name === editing.name)
  useEffect(() => {
    if (editedGone) setEditing({ kind: 'none' })
  }, [editedGone])
  const close = () => setEditing({ kind: 'none' })
  return (
    <section className="settings-section" aria-labelledby="settings-mcp-title" data-testid="mcp-servers">
      <h3 id="settings-mcp-title">Tools</h3>
      <p className="hint mcp-hint">
        Tools of MCP servers become the assistant’s actions (<code>server__tool</code>). Wisp asks you before every call,
        as for a shell command, unless you chose “Always allow” for that tool.
      </p>
      {loadError !== null ? (
        <p className="notice notice-error" role="alert" data-testid="mcp-load-error">
          {loadError}{' '}
          <button type="button" className="link-button" onClick={() => void store?.load()}>
            Try again
          </button>
        </p>
      ) : null}
      {servers === null ? (
        loadError === null ? <p className="empty">Loading…</p> : null
      ) : servers.length === 0 ? (
        <p className="empty" data-testid="mcp-empty">
          No MCP servers yet.
        </p>
      ) : (
        <ul className="mcp-list">
          {servers.map((s) =>
            editing.kind === 'edit' && editing.name === s.name ? (
              <li key={s.name} className="mcp-server" data-testid="mcp-server" data-name={s.name} data-status={s.status}>
                <McpServerForm server={s} blocked={blocked} onDone={close} />
              </li>
            ) : (
              <McpServerItem key={s.name} server={s} blocked={blocked} onEdit={() => setEditing({ kind: 'edit', name: s.name })} />
            ),
          )}
        </ul>
      )}
      {editing.kind === 'new' ? (
        <McpServerForm server={null} blocked={blocked} onDone={close} />
      ) : (
        <button type="button" className="header-button mcp-add" data-testid="mcp-add" disabled={blocked} onClick={() => setEditing({ kind: 'new' })}>
          Add server
        </button>
      )}
    </section>
  )
}
