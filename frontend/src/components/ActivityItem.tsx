import type { StreamEnvelope } from '../api'
import { compactJSON, formatClock } from '../format'
import { escapeHidden } from '../hiddenChars'
import { describeActivity, type ConversationTitleLookup } from '../state/activity'
import { HiddenText } from './HiddenText'

// One event of the activity panel. Payloads carry what the model and tools
// wrote (commands, arguments, output): drawn through HiddenText, so their
// hidden and direction-changing characters show as escapes.

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
          title={escapeHidden(compactJSON(envelope.payload))}
        >
          {view.conversation ? (
            <span className="activity-conversation">
              <HiddenText text={view.conversation} newline="escape" />
            </span>
          ) : null}
          <HiddenText text={view.text} newline="break" />
        </p>
      ) : view.full === undefined ? (
        <code className="activity-payload">
          <HiddenText text={view.compact} newline="escape" />
        </code>
      ) : (
        <details className="activity-json">
          <summary title="Show the whole payload">
            <code className="activity-payload">
              <HiddenText text={view.compact} newline="escape" />
            </code>
          </summary>
          <pre className="activity-json-full">
            <HiddenText text={view.full} newline="break" />
          </pre>
        </details>
      )}
    </li>
  )
}
