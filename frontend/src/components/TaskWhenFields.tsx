// When a new task runs (TaskForm): once at a date and time, every… (daily,
// weekdays or chosen days at a time, or every N hours: the builder of
// state/taskForm.ts, with the schedule in words), a custom RRULE, or a cron
// line. Times are this computer's.

import { useId } from 'react'
import {
  MAX_EVERY_HOURS,
  WEEKDAYS,
  WEEKDAY_NAMES,
  everyInWords,
  toggleDay,
  type EveryDraft,
  type EveryKind,
  type TaskDraft,
  type TaskField,
  type WhenKind,
} from '../state/taskForm'

interface Props {
  draft: TaskDraft
  disabled: boolean
  /** The input the last problem is in. */
  invalid: TaskField | null
  /** The id of the form's error line. */
  errorId: string
  onChange(next: Partial<TaskDraft>, field?: TaskField): void
}

const WHEN_OPTIONS: { value: WhenKind; label: string }[] = [
  { value: 'once', label: 'Once, at a time' },
  { value: 'every', label: 'Every…' },
  { value: 'rrule', label: 'Custom RRULE' },
  { value: 'cron', label: 'Cron' },
]

const EVERY_OPTIONS: { value: EveryKind; label: string }[] = [
  { value: 'daily', label: 'Day' },
  { value: 'weekdays', label: 'Weekday (Monday to Friday)' },
  { value: 'weekly', label: 'Week, on the days chosen' },
  { value: 'hours', label: 'N hours' },
]

export function TaskWhenFields({ draft, disabled, invalid, errorId, onChange }: Props) {
  const id = useId()
  const aria = (field: TaskField) => ({
    'aria-invalid': invalid === field,
    'aria-describedby': invalid === field ? errorId : undefined,
  })
  const every = (next: Partial<EveryDraft>, field: TaskField) => onChange({ every: { ...draft.every, ...next } }, field)
  return (
    <div className="task-when">
      <div className="setting">
        <label htmlFor={`${id}-when`} className="setting-label">
          When
        </label>
        <select
          id={`${id}-when`}
          data-testid="task-when"
          value={draft.when}
          disabled={disabled}
          onChange={(e) => onChange({ when: e.target.value as WhenKind })}
        >
          {WHEN_OPTIONS.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      {draft.when === 'once' ? (
        <div className="setting">
          <label htmlFor={`${id}-at`} className="setting-label">
            Run at
          </label>
          <input
            id={`${id}-at`}
            type="datetime-local"
            data-testid="task-once-at"
            value={draft.onceAt}
            disabled={disabled}
            {...aria('onceAt')}
            onChange={(e) => onChange({ onceAt: e.target.value }, 'onceAt')}
          />
        </div>
      ) : null}
      {draft.when === 'every' ? (
        <div className="task-every" data-testid="task-every">
          <div className="setting">
            <label htmlFor={`${id}-every`} className="setting-label">
              Repeat every
            </label>
            <select
              id={`${id}-every`}
              data-testid="task-every-kind"
              value={draft.every.kind}
              disabled={disabled}
              onChange={(e) => every({ kind: e.target.value as EveryKind }, 'time')}
            >
              {EVERY_OPTIONS.map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </select>
          </div>
          {draft.every.kind === 'hours' ? (
            <div className="setting">
              <label htmlFor={`${id}-hours`} className="setting-label">
                Hours between runs
              </label>
              <input
                id={`${id}-hours`}
                type="number"
                min={1}
                max={MAX_EVERY_HOURS}
                step={1}
                data-testid="task-every-hours"
                value={draft.every.hours}
                disabled={disabled}
                {...aria('hours')}
                onChange={(e) => every({ hours: e.target.value }, 'hours')}
              />
            </div>
          ) : (
            <div className="setting">
              <label htmlFor={`${id}-time`} className="setting-label">
                At (HH:MM)
              </label>
              <input
                id={`${id}-time`}
                type="time"
                data-testid="task-every-time"
                value={draft.every.time}
                disabled={disabled}
                {...aria('time')}
                onChange={(e) => every({ time: e.target.value }, 'time')}
              />
            </div>
          )}
          {draft.every.kind === 'weekly' ? (
            <fieldset className="task-days" disabled={disabled} aria-invalid={invalid === 'days'}>
              <legend className="setting-label">On</legend>
              {WEEKDAYS.map((d) => (
                <label key={d} title={WEEKDAY_NAMES[d]}>
                  <input
                    type="checkbox"
                    data-testid={`task-day-${d}`}
                    checked={draft.every.days.includes(d)}
                    aria-label={WEEKDAY_NAMES[d]}
                    onChange={() => every({ days: toggleDay(draft.every.days, d) }, 'days')}
                  />
                  <span aria-hidden="true">{WEEKDAY_NAMES[d].slice(0, 2)}</span>
                </label>
              ))}
            </fieldset>
          ) : null}
          <p className="hint task-preview" data-testid="task-every-words">
            Runs {everyInWords(draft.every)}.
          </p>
        </div>
      ) : null}
      {draft.when === 'rrule' ? (
        <div className="setting">
          <label htmlFor={`${id}-rrule`} className="setting-label">
            RRULE (RFC 5545)
          </label>
          <input
            id={`${id}-rrule`}
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder="FREQ=MONTHLY;BYMONTHDAY=1;BYHOUR=9;BYMINUTE=0"
            data-testid="task-rrule"
            value={draft.rrule}
            disabled={disabled}
            {...aria('rrule')}
            onChange={(e) => onChange({ rrule: e.target.value }, 'rrule')}
          />
        </div>
      ) : null}
      {draft.when === 'cron' ? (
        <div className="setting">
          <label htmlFor={`${id}-cron`} className="setting-label">
            Cron line (minute hour day month weekday)
          </label>
          <input
            id={`${id}-cron`}
            type="text"
            spellCheck={false}
            autoComplete="off"
            placeholder="0 9 * * 1-5"
            data-testid="task-cron"
            value={draft.cron}
            disabled={disabled}
            {...aria('cron')}
            onChange={(e) => onChange({ cron: e.target.value }, 'cron')}
          />
        </div>
      ) : null}
    </div>
  )
}
