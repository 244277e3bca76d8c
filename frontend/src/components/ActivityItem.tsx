import type { StreamEnvelope } from '../api'
import { compactJSON, formatClock } from '../format'
import { describeActivity, type ConversationTitleLookup } from '../state/activity'

export function ActivityItem({
  envelope,
  titleOf,
}: {
  envelope: StreamEnvelope
  titleOf?: ConversationTitleLookup
}) {
  const when = new Date(envelope.ts)
  const view = describeActivity(envelope, titleOf)
  return (
    <li className={`activity-item kind-${envelope.type}`} data-testid="activity-item">
      <div className="activity-meta">
        <span className="activity-type">{envelope.type}</span>
        {envelope.stream ? <span className="activity-stream">{envelope.stream}</span> : null}
        <time dateTime={when.toISOString()} title={`${when.toLocaleString()} · ${envelope.eventId}`}>
          {formatClock(envelope.ts)}
        </time>
      </div>
      {view.kind === 'text' ? (
        <p
          className={`activity-text${view.status && /^[\w-]+$/.test(view.status) ? ` status-${view.status}` : ''}`}
          title={compactJSON(envelope.payload)}
        >
          {view.conversation ? <span className="activity-conversation">{view.conversation}</span> : null}
          {view.text}
        </p>
      ) : view.full === undefined ? (
        <code className="activity-payload">{view.compact}</code>
      ) : (
        <details className="activity-json">
          <summary title="Show the whole payload">
            <code className="activity-payload">{view.compact}</code>
          </summary>
          <pre className="activity-json-full">{view.full}</pre>
        </details>
      )}
    </li>
  )
}
