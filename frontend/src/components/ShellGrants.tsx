// Settings › Grants: the base commands Wisp may run, and the tools of MCP
// servers it may call, without asking (saved by "Always allow" on an approval
// card), each labelled as a command or a tool, with Revoke. Loaded when the
// settings open; the approvals store reloads it after an "Always allow".
// Grants live in the database, not the config file, so this works even while
// the file has an error.

import './ShellGrants.css'
import { useEffect, useState } from 'react'
import type { Grant, TaskGrant } from '../api'
import { useApprovalStore, useApprovals } from '../state/useApprovals'
import { tildePath } from './homePath'

export function ShellGrants() {
  const store = useApprovalStore()
  const { grants, grantsError } = useApprovals()
  useEffect(() => {
    void store?.loadGrants()
  }, [store])
  return (
    <section className="settings-section" aria-labelledby="settings-grants-title" data-testid="settings-section-grants">
      <h3 id="settings-grants-title">Grants</h3>
      <p className="hint grants-hint">
        Shell commands, tools, sites and folders Wisp may use without asking, because you chose “Always allow”. A shell command is run
        without asking only when every command in it is granted.
      </p>
      {grantsError !== null ? (
        <p className="notice notice-error" role="alert" data-testid="grants-error">
          {grantsError}
        </p>
      ) : null}
      {grants === null ? (
        grantsError === null ? <p className="empty">Loading…</p> : null
      ) : grants.length === 0 ? (
        <p className="empty" data-testid="grants-empty">
          No grants: Wisp asks before every shell command and tool call.
        </p>
      ) : (
        <ul className="grants-list" data-testid="grants-list">
          {grants.map((g) => (
            <GrantRow key={g.id} grant={g} onRevoke={(id) => store?.revokeGrant(id) ?? Promise.resolve()} />
          ))}
        </ul>
      )}
    </section>
  )
}

function GrantRow({ grant, onRevoke }: { grant: Grant; onRevoke(id: string): Promise<void> }) {
  const [busy, setBusy] = useState(false)
  const since = new Date(grant.createdAt)
  const revoke = async () => {
    setBusy(true)
    try {
      await onRevoke(grant.id)
    } finally {
      setBusy(false)
    }
  }
  const { label, title, aria } = grantLabel(grant)
  return (
    <li className="grant" data-testid="grant" data-base={grant.base} data-kind={grant.kind}>
      <span className={`tag grant-kind grant-kind-${grant.kind}`} data-testid="grant-kind">
        {label}
      </span>
      <code className="grant-base" title={title}>
        {grant.kind === 'file_read' || grant.kind === 'file_edit' ? tildePath(grant.base) : grant.base}
      </code>
      {Number.isNaN(since.getTime()) ? null : <span className="muted grant-since">since {since.toLocaleDateString()}</span>}
      <button
        type="button"
        className="header-button"
        data-testid="revoke-grant"
        aria-label={`Revoke ${aria}${grant.base}`}
        disabled={busy}
        onClick={() => void revoke()}
      >
        Revoke
      </button>
    </li>
  )
}

/** What a grant lets Wisp do, by its kind: the tag, the base's title, the words before the base in Revoke's label. */
export function grantLabel(grant: Grant | TaskGrant): { label: string; title: string; aria: string } {
  switch (grant.kind) {
    case 'mcp':
      return { label: 'Tool', title: `The tool ${grant.base} of an MCP server`, aria: 'tool ' }
    case 'web':
      return { label: 'Site', title: `Pages of ${grant.base}, fetched without asking`, aria: 'site ' }
    case 'file_read':
      return { label: 'Read files', title: `Reading files in ${grant.base} without asking`, aria: 'reading in ' }
    case 'file_edit':
      return { label: 'Edit files', title: `Changing files in ${grant.base} without asking`, aria: 'edits under ' }
    default:
      return { label: 'Command', title: `The shell command ${grant.base}`, aria: '' }
  }
}
