// A task's own grants in its row of Settings → Tasks (docs/tasks.md, "Grants
// of its own"): what its runs may do without asking, in words, each with
// Remove, and "Add a grant" (a kind and its base, checked here first). Every
// change sends the whole new list (PATCH replaces it); the server's refusal
// shows inline and the controls are disabled while it saves. It lives inside
// the settings <form>: a group with its own button, Enter in its input adds.

import { useId, useState } from 'react'
import type { TaskGrant } from '../api'
import { checkTaskGrant, taskGrantKinds, taskGrantWords, type TaskGrantKind } from '../state/taskGrants'
import { grantLabel } from './ShellGrants'

interface Props {
  grants: readonly TaskGrant[]
  /** Saves the task's whole new list of grants. Rejects with the server's words. */
  onSave(grants: TaskGrant[]): Promise<void>
}

export function TaskGrants({ grants, onSave }: Props) {
  const id = useId()
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [kind, setKind] = useState<TaskGrantKind>('shell')
  const [base, setBase] = useState('')
  const [invalid, setInvalid] = useState(false)

  const save = async (next: TaskGrant[]): Promise<boolean> => {
    setSaving(true)
    setError(null)
    try {
      await onSave(next)
      return true
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
      return false
    } finally {
      setSaving(false)
    }
  }

  const add = async () => {
    const why = checkTaskGrant(kind, base, grants)
    setInvalid(why !== null)
    if (why !== null) {
      setError(why)
      return
    }
    if (await save([...grants, { kind, base: base.trim() }])) setBase('')
  }

  const placeholder = taskGrantKinds.find((k) => k.kind === kind)?.placeholder ?? ''
  return (
    <div className="task-grants" data-testid="task-grants" role="group" aria-label="Grants of this task">
      {grants.length === 0 ? (
        <p className="muted task-grants-none" data-testid="task-grants-none">
          Its runs ask before every command, tool, site and file, like a chat.
        </p>
      ) : (
        <>
          <p className="task-grants-intro">Without asking, its runs may:</p>
          <ul className="task-grant-list" data-testid="task-grant-list">
            {grants.map((g, i) => {
              const { verb, shown } = taskGrantWords(g)
              return (
                <li key={`${g.kind}:${g.base}`} className="task-grant" data-testid="task-grant" data-kind={g.kind} data-base={g.base}>
                  <span data-testid="task-grant-words">
                    {verb} <code title={grantLabel(g).title}>{shown}</code>
                  </span>
                  <button
                    type="button"
                    className="link-button"
                    data-testid="task-grant-remove"
                    aria-label={`Remove: ${verb} ${shown}`}
                    disabled={saving}
                    onClick={() => void save(grants.filter((_, j) => j !== i))}
                  >
                    Remove
                  </button>
                </li>
              )
            })}
          </ul>
        </>
      )}
      <div
        className="task-grant-add"
        role="group"
        aria-label="A new grant of this task"
        onKeyDown={(e) => {
          if (e.key !== 'Enter' || !(e.target instanceof HTMLElement) || e.target.tagName !== 'INPUT') return
          e.preventDefault()
          void add()
        }}
      >
        <label htmlFor={`${id}-kind`}>Add a grant</label>
        <select
          id={`${id}-kind`}
          data-testid="task-grant-kind"
          value={kind}
          disabled={saving}
          onChange={(e) => {
            setKind(e.target.value as TaskGrantKind)
            setInvalid(false)
            setError(null)
          }}
        >
          {taskGrantKinds.map((k) => (
            <option key={k.kind} value={k.kind}>
              {k.label}
            </option>
          ))}
        </select>
        <input
          id={`${id}-base`}
          type="text"
          spellCheck={false}
          autoComplete="off"
          data-testid="task-grant-base"
          aria-label="What it may use"
          placeholder={placeholder}
          value={base}
          disabled={saving}
          aria-invalid={invalid}
          aria-describedby={error !== null ? `${id}-error` : undefined}
          onChange={(e) => {
            setBase(e.target.value)
            setInvalid(false)
          }}
        />
        <button type="button" className="header-button" data-testid="task-grant-add" disabled={saving} onClick={() => void add()}>
          {saving ? 'Saving…' : 'Add'}
        </button>
      </div>
      {error !== null ? (
        <p id={`${id}-error`} className="row-error" role="alert" data-testid="task-grant-error">
          {error}
        </p>
      ) : null}
    </div>
  )
}
