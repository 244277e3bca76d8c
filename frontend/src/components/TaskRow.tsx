// One task of Settings → Tasks: its prompt, its schedule in words, its next
// run (relative and local time), its last run (status, result or error, and
// a link that opens the conversation it went to), its own grants (TaskGrants),
// then Pause/Resume, Run now
// and Delete (asked again before it deletes). A request's refusal (the
// server's words: 409 while a run of it is going) shows under the row.

import { useState } from 'react'
import type { Task, TaskGrant } from '../api'
import { formatLocalTime, formatRelative } from '../format'
import { TaskGrants } from './TaskGrants'
import { TaskLastRun } from './TaskLastRun'

export interface TaskRowActions {
  setPaused(id: string, paused: boolean): Promise<void>
  runNow(id: string): Promise<void>
  remove(id: string): Promise<void>
  /** Replaces a task's own grants with this list. */
  setGrants(id: string, grants: TaskGrant[]): Promise<void>
  /** Opens the conversation a task posts in. */
  openConversation(id: string): void
}

interface Props {
  task: Task
  now: number
  actions: TaskRowActions
}

type Busy = 'pause' | 'run' | 'delete' | null

export function TaskRow({ task, now, actions }: Props) {
  const [busy, setBusy] = useState<Busy>(null)
  const [confirming, setConfirming] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const running = task.lastRun !== null && (task.lastRun.status === 'running' || task.lastRun.status === 'paused')

  const act = async (what: Exclude<Busy, null>, call: () => Promise<void>) => {
    setBusy(what)
    setError(null)
    try {
      await call()
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(null)
      setConfirming(false)
    }
  }

  return (
    <li
      className={`task-row${task.paused ? ' paused' : ''}`}
      data-testid="task-row"
      data-task-id={task.id}
      data-paused={task.paused}
      data-run-status={task.lastRun?.status ?? 'none'}
      aria-label={task.prompt}
    >
      <p className="task-prompt" data-testid="task-prompt">
        {task.prompt}
      </p>
      <p className="task-meta">
        <span className="task-schedule" data-testid="task-schedule">
          {task.schedule}
        </span>
        <NextRun task={task} now={now} />
      </p>
      {task.lastRun !== null ? (
        <TaskLastRun run={task.lastRun} now={now} conversationId={task.conversationId} onOpen={actions.openConversation} />
      ) : (
        <p className="task-last muted" data-testid="task-last-run">
          Not run yet.
        </p>
      )}
      <TaskGrants grants={task.grants} onSave={(grants) => actions.setGrants(task.id, grants)} />
      {confirming ? (
        <div className="confirm-delete" role="group" aria-label="Delete this task?">
          <span>Delete this task? Its past results stay in their conversation.</span>
          <button type="button" className="danger" data-testid="task-delete-confirm" disabled={busy !== null} onClick={() => void act('delete', () => actions.remove(task.id))}>
            {busy === 'delete' ? 'Deleting…' : 'Delete'}
          </button>
          <button type="button" className="secondary" data-testid="task-delete-cancel" disabled={busy !== null} onClick={() => setConfirming(false)}>
            Keep it
          </button>
        </div>
      ) : (
        <div className="task-actions" role="group" aria-label="Task actions">
          <button
            type="button"
            className="header-button"
            data-testid="task-pause"
            disabled={busy !== null}
            onClick={() => void act('pause', () => actions.setPaused(task.id, !task.paused))}
          >
            {task.paused ? 'Resume' : 'Pause'}
          </button>
          <button
            type="button"
            className="header-button"
            data-testid="task-run"
            disabled={busy !== null || running}
            title={running ? 'A run of this task is going' : 'Run it now, once, in its conversation'}
            onClick={() => void act('run', () => actions.runNow(task.id))}
          >
            {busy === 'run' ? 'Starting…' : 'Run now'}
          </button>
          <button type="button" className="header-button danger" data-testid="task-delete" disabled={busy !== null} onClick={() => setConfirming(true)}>
            Delete
          </button>
        </div>
      )}
      {error !== null ? (
        <p className="row-error" role="alert" data-testid="task-error">
          {error}
        </p>
      ) : null}
    </li>
  )
}

function NextRun({ task, now }: { task: Task; now: number }) {
  if (task.paused) {
    return (
      <span className="tag" data-testid="task-next">
        paused
      </span>
    )
  }
  if (task.nextRunAt === null) {
    return (
      <span className="task-next muted" data-testid="task-next">
        no next run
      </span>
    )
  }
  const ms = Date.parse(task.nextRunAt)
  return (
    <span className="task-next" data-testid="task-next">
      next{' '}
      <time dateTime={task.nextRunAt} title={new Date(ms).toLocaleString()}>
        {formatRelative(ms, now)} · {formatLocalTime(ms, now)}
      </time>
    </span>
  )
}
