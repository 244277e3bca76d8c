// The create form of Settings → Tasks: the prompt, where the results go (the
// open conversation or a new one), when (once at a time, every… through the
// builder, a custom RRULE or a cron line: TaskWhenFields) and whether a time
// missed while Wisp was off runs once at the next start or is skipped. It
// lives inside the settings <form>, so it is a group of fields with its own
// button, and Enter in one of its inputs creates the task instead of
// submitting the settings. The server's refusal ({"error"}: the schedule
// parser's words) shows inline; everything is disabled while it saves.
// State: state/taskForm.ts.

import { useId, useState, type KeyboardEvent } from 'react'
import type { NewTask } from '../api'
import { EMPTY_TASK_DRAFT, taskRequest, type TaskDraft, type TaskField } from '../state/taskForm'
import { TaskWhenFields } from './TaskWhenFields'

interface Props {
  /** The open conversation and its title (null: none is open, so results go to a new one). */
  conversation: { id: string; title: string } | null
  onCreate(req: NewTask): Promise<unknown>
}

export function TaskForm({ conversation, onCreate }: Props) {
  const [draft, setDraft] = useState<TaskDraft>(EMPTY_TASK_DRAFT)
  const [problem, setProblem] = useState<{ field: TaskField | null; error: string } | null>(null)
  const [saving, setSaving] = useState(false)
  const [created, setCreated] = useState<string | null>(null)
  const id = useId()

  const change = (next: Partial<TaskDraft>, field?: TaskField) => {
    setDraft((d) => ({ ...d, ...next }))
    setCreated(null)
    if (problem !== null && (field === undefined || problem.field === field || problem.field === null)) setProblem(null)
  }

  const create = async () => {
    if (saving) return
    const result = taskRequest(draft, conversation?.id ?? null)
    if (!result.ok) {
      setProblem({ field: result.field, error: result.error })
      return
    }
    setSaving(true)
    setProblem(null)
    try {
      await onCreate(result.request)
      setDraft((d) => ({ ...EMPTY_TASK_DRAFT, target: d.target, when: d.when, every: d.every, catchUp: d.catchUp }))
      setCreated('Task created.')
    } catch (err) {
      setProblem({ field: null, error: err instanceof Error ? err.message : String(err) })
    } finally {
      setSaving(false)
    }
  }
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Enter' || !(e.target instanceof HTMLElement) || e.target.tagName !== 'INPUT') return
    e.preventDefault()
    void create()
  }

  const invalid = (field: TaskField) => problem?.field === field
  const errorId = `${id}-error`
  return (
    <div className="task-form" role="group" aria-labelledby={`${id}-title`} data-testid="task-form" onKeyDown={onKeyDown}>
      <h4 id={`${id}-title`}>New task</h4>
      <div className="setting">
        <label htmlFor={`${id}-prompt`} className="setting-label">
          Prompt
        </label>
        <textarea
          id={`${id}-prompt`}
          data-testid="task-prompt-input"
          rows={2}
          placeholder="Check my inbox folder and summarise what is new"
          value={draft.prompt}
          disabled={saving}
          aria-invalid={invalid('prompt')}
          aria-describedby={invalid('prompt') ? errorId : undefined}
          onChange={(e) => change({ prompt: e.target.value }, 'prompt')}
        />
      </div>
      <fieldset className="task-choice" disabled={saving}>
        <legend className="setting-label">Results go to</legend>
        <label>
          <input
            type="radio"
            name={`${id}-target`}
            data-testid="task-target-current"
            checked={draft.target === 'current' && conversation !== null}
            disabled={conversation === null}
            onChange={() => change({ target: 'current' })}
          />
          <span>{conversation === null ? 'This conversation (none is open)' : `This conversation (${conversation.title})`}</span>
        </label>
        <label>
          <input
            type="radio"
            name={`${id}-target`}
            data-testid="task-target-new"
            checked={draft.target === 'new' || conversation === null}
            onChange={() => change({ target: 'new' })}
          />
          <span>A new conversation, named after the prompt</span>
        </label>
      </fieldset>
      <TaskWhenFields draft={draft} disabled={saving} invalid={problem?.field ?? null} errorId={errorId} onChange={change} />
      <div className="setting setting-check">
        <label htmlFor={`${id}-catchUp`}>
          <input
            id={`${id}-catchUp`}
            type="checkbox"
            data-testid="task-catchup"
            checked={draft.catchUp}
            disabled={saving}
            onChange={(e) => change({ catchUp: e.target.checked })}
          />
          <span>If Wisp was off at its time, run it once at the next start (off: skip that time)</span>
        </label>
      </div>
      <div className="task-form-actions">
        <button type="button" className="header-button" data-testid="task-create" disabled={saving} onClick={() => void create()}>
          {saving ? 'Creating…' : 'Create task'}
        </button>
        {problem !== null ? (
          <span id={errorId} className="setting-error" role="alert" data-testid="task-form-error">
            {problem.error}
          </span>
        ) : created !== null ? (
          <span className="hint" role="status" data-testid="task-form-status">
            {created}
          </span>
        ) : null}
      </div>
    </div>
  )
}
