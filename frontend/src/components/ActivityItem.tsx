import type { StreamEnvelope } from '../api'
import { compactJSON, formatClock } from '../format'

export function ActivityItem({ envelope }: { envelope: StreamEnvelope }) {
  const when = new Date(envelope.ts)
  return (
    <li className={`activity-item kind-${envelope.type}`} data-testid="activity-item">
      <div className="activity-meta">
        <span className="activity-type">{envelope.type}</span>
        {envelope.stream ? <span className="activity-stream">{envelope.stream}</span> : null}
        <time dateTime={when.toISOString()} title={`${when.toLocaleString()} · ${envelope.eventId}`}>
          {formatClock(envelope.ts)}
        </time>
      </div>
      <code className="activity-payload">{compactJSON(envelope.payload)}</code>
    </li>
  )
}
