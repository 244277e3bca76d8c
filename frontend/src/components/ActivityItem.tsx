import type { StreamEnvelope } from '../api'
import { compactJSON, formatClock } from '../format'
import { escapeHidden } from '../hiddenChars'
import { describeActivity, type ConversationTitleLookup } from '../state/activity'
import { HiddenText } from './HiddenText'

// One event of the activity panel, in words (state/activity.ts); the raw
// event's type and id are in the time's tooltip. Payloads carry what the
// model and tools wrote (commands, arguments, output): drawn through
// HiddenText, so their hidden and direction-changing characters show as
// escapes.

export function ActivityItem({
  envelope,
  titleOf,
  agent,
}: {
  envelope: StreamEnvelope
  titleOf?: ConversationTitleLookup
  /** The assistant's name. */
  agent?: string
}) {
  const when = new Date(envelope.ts)
  const view = describeActivity(envelope, titleOf, agent)
  // An event another program posted is known by its stream (or type) only.
  const label = view.kind === 'text' ? view.label : envelope.stream || envelope.type
  return (
    <li className={`activity-item kind-${envelope.type}`} data-testid="activity-item">
      <div className="activity-meta">
        <span className="activity-type">{label}</span>
        <time dateTime={when.toISOString()} title={`${when.toLocaleString()} · ${envelope.type} ${envelope.eventId}`}>
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
