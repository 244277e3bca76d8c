import { useWisp } from '../state/WispProvider'
import { formatClock, formatDuration } from '../format'

export function ChatPanel() {
  return (
    <main className="chat">
      <div className="chat-empty">
        <h2>No chat yet</h2>
        <p>
          Chat is not part of this version of Wisp. Until it arrives, this window shows what the
          agent is doing: its status above and its live activity on the right.
        </p>
        <StatusSummary />
      </div>
    </main>
  )
}

function StatusSummary() {
  const { status } = useWisp().state
  if (status === null) return <p className="muted">Waiting for the server's status…</p>
  return (
    <dl className="status-summary">
      <dt>Agent</dt>
      <dd>{status.agentName || '—'}</dd>
      <dt>State</dt>
      <dd>{status.state}</dd>
      <dt>Model</dt>
      <dd>{status.model || 'none configured'}</dd>
      <dt>Can respond</dt>
      <dd>{status.canRespond ? 'yes' : `no — ${status.canRespondReason || 'no reason given'}`}</dd>
      <dt>Started</dt>
      <dd>{status.startedAt > 0 ? formatClock(status.startedAt) : '—'}</dd>
      <dt>Uptime</dt>
      <dd>{formatDuration(status.uptime)}</dd>
    </dl>
  )
}
