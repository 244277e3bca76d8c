import { useState, type FormEvent } from 'react'
import type { NewReminder } from '../api'
import { reminderRequest, type ReminderDraft } from '../state/reminders'

interface Props {
  /** The open conversation, where the reminder is delivered; null: none is open. */
  conversationId: string | null
  conversationTitle: string | null
  onCreate(req: NewReminder): Promise<void>
}

const EMPTY: ReminderDraft = { text: '', mode: 'in', minutes: '10', at: '' }

/** The compact add form: text, then "in N min" or "at" a local date and time. Server errors show inline. */
export function ReminderForm({ conversationId, conversationTitle, onCreate }: Props) {
  const [draft, setDraft] = useState<ReminderDraft>(EMPTY)
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const set = (change: Partial<ReminderDraft>) => setDraft((d) => ({ ...d, ...change }))

  const submit = async (e: FormEvent) => {
    e.preventDefault()
    const result = reminderRequest(draft, conversationId)
    if (!result.ok) {
      setError(result.error)
      return
    }
    setSaving(true)
    setError(null)
    try {
      await onCreate(result.request)
      setDraft((d) => ({ ...d, text: '' }))
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="reminder-form" data-testid="reminder-form" onSubmit={(e) => void submit(e)} noValidate>
      <input
        className="reminder-input"
        data-testid="reminder-input"
        aria-label="Remind me to"
        placeholder="Remind me to…"
        maxLength={2000}
        value={draft.text}
        disabled={saving}
        onChange={(e) => set({ text: e.target.value })}
      />
      <div className="reminder-when">
        <select
          aria-label="When"
          data-testid="reminder-mode"
          value={draft.mode}
          disabled={saving}
          onChange={(e) => set({ mode: e.target.value === 'at' ? 'at' : 'in' })}
        >
          <option value="in">in</option>
          <option value="at">at</option>
        </select>
        {draft.mode === 'in' ? (
          <>
            <input
              type="number"
              className="reminder-minutes"
              data-testid="reminder-minutes"
              aria-label="Minutes from now"
              min={1}
              step={1}
              value={draft.minutes}
              disabled={saving}
              onChange={(e) => set({ minutes: e.target.value })}
            />
            <span className="muted">min</span>
          </>
        ) : (
          <input
            type="datetime-local"
            className="reminder-at"
            data-testid="reminder-at"
            aria-label="Date and time"
            value={draft.at}
            disabled={saving}
            onChange={(e) => set({ at: e.target.value })}
          />
        )}
        <button type="submit" className="reminder-add" data-testid="reminder-add" disabled={saving}>
          Add
        </button>
      </div>
      <p className="reminder-target muted">
        {conversationTitle === null ? 'Not tied to a chat: it goes to the one open when it is due.' : <>Goes to “{conversationTitle}”.</>}
      </p>
      {error !== null ? (
        <p className="reminder-error" role="alert" data-testid="reminder-error">
          {error}
        </p>
      ) : null}
    </form>
  )
}
