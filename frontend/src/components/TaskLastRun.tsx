// The last run of a task (TaskRow): when it started, its status (running,
// paused for an approval, done, failed, skipped; "now" when run by hand), its
// result or error as plain text, and a link that opens its conversation.

import type { TaskRun, TaskRunStatus } from '../api'
import { formatLocalTime, formatRelative } from '../format'
import { hashForConversation } from '../state/hashRoute'

const STATUS_WORDS: Record<TaskRunStatus, string> = {
  running: 'running',
  paused: 'waiting for your approval',
  done: 'done',
  failed: 'failed',
  skipped: 'skipped (Wisp was off)',
}

interface Props {
  run: TaskRun
  now: number
  /** The conversation the run posted in. */
  conversationId: string
  onOpen(id: string): void
}

export function TaskLastRun({ run, now, conversationId, onOpen }: Props) {
  // A run started in the past: a clock a little behind the server's says "just now", never "in 1 s".
  const ms = Math.min(Date.parse(run.startedAt), now)
  const text = run.status === 'failed' ? run.error : run.result
  return (
    <div className={`task-last status-${run.status}`} data-testid="task-last-run" data-status={run.status}>
      <p className="task-last-head">
        <span>Last run</span>
        <time dateTime={run.startedAt} title={new Date(run.startedAt).toLocaleString()}>
          {formatRelative(ms, now)} · {formatLocalTime(ms, now)}
        </time>
        <span className={`tag task-status-${run.status}`} data-testid="task-run-status">
          {STATUS_WORDS[run.status]}
        </span>
        {run.manual ? <span className="tag">run by hand</span> : null}
        <a
          href={hashForConversation(conversationId)}
          className="task-open"
          data-testid="task-open-conversation"
          onClick={(e) => {
            e.preventDefault()
            onOpen(conversationId)
          }}
        >
          Open its conversation
        </a>
      </p>
      {text !== '' ? (
        <p className="task-result" data-testid="task-result" title={text}>
          {text}
        </p>
      ) : null}
    </div>
  )
}
