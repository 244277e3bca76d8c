import { useState } from 'react'
import type { Reminder } from '../api'
import { formatLocalTime, formatRelative } from '../format'
import { Icon } from './Icon'

interface Props {
  reminder: Reminder
  now: number
  /** Title of the conversation it posts in, when that is not the open one. */
  conversation: string | undefined
  onDelete(id: string): Promise<void>
}

/** One reminder: its text, when it is due (or was delivered), and a Delete button. */
export function ReminderRow({ reminder: r, now, conversation, onDelete }: Props) {
  const [deleting, setDeleting] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const delivered = r.status === 'delivered'
  const when = delivered && r.deliveredAt !== undefined ? r.deliveredAt : r.at
  const ms = Date.parse(when)

  const remove = async () => {
    setDeleting(true)
    setError(null)
    try {
      await onDelete(r.id)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
      setDeleting(false)
    }
  }

  return (
    <li className={`reminder-row status-${r.status}`} data-testid="reminder-row" data-reminder-id={r.id} data-status={r.status}>
      <div className="reminder-main">
        <p className="reminder-text" data-testid="reminder-text">
          {r.text}
        </p>
        <p className="reminder-meta">
          <time dateTime={when} title={new Date(ms).toLocaleString()}>
            {formatRelative(ms, now)} · {formatLocalTime(ms, now)}
          </time>
          {delivered ? (
            <span className="tag" data-testid="reminder-delivered">
              delivered
            </span>
          ) : null}
          {r.late ? (
            <span className="tag tag-late" title={`It was due ${new Date(Date.parse(r.at)).toLocaleString()}`}>
              late
            </span>
          ) : null}
          {conversation !== undefined ? <span className="reminder-where">in {conversation}</span> : null}
        </p>
        {error !== null ? (
          <p className="row-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <button
        type="button"
        className="icon-button"
        aria-label={`Delete reminder ${r.text}`}
        title="Delete"
        data-testid="delete-reminder"
        disabled={deleting}
        onClick={() => void remove()}
      >
        <Icon name="trash" />
      </button>
    </li>
  )
}
