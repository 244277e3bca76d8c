// One setting of the settings view: its label, how it applies (a "restart"
// tag, the variable that overrides it, "file only"), its input and its error.

import type { ReactNode } from 'react'
import type { FieldSpec, FieldMeta, FormValue } from '../state/settingsForm'

export function SettingTags({ meta }: { meta: FieldMeta }) {
  return (
    <>
      {meta.apply === 'restart' ? (
        <span className="tag tag-restart" title="Takes effect after Wisp restarts">
          restart
        </span>
      ) : null}
      {meta.override !== null ? (
        <span
          className="tag tag-override"
          title={`${meta.override} sets this for the running Wisp; saving changes the file only`}
        >
          set by {meta.override}
        </span>
      ) : null}
      {!meta.editable ? (
        <span className="tag" title="Only a hand edit of the config file changes this">
          file only
        </span>
      ) : null}
    </>
  )
}

interface Props {
  spec: FieldSpec
  meta: FieldMeta
  value: FormValue | undefined
  error: string | undefined
  disabled: boolean
  onChange(value: FormValue): void
  /** Replaces the spec's hint (the base URL's default depends on the provider). */
  hint?: ReactNode
}

export function SettingField({ spec, meta, value, error, disabled, onChange, hint }: Props) {
  const id = `setting-${spec.path}`
  const locked = disabled || !meta.editable
  const note = !meta.editable ? 'Change it by editing the config file.' : (hint ?? spec.hint)
  const described = [note ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined

  if (spec.kind === 'bool') {
    return (
      <div className="setting setting-check">
        <label htmlFor={id}>
          <input
            id={id}
            data-testid={id}
            type="checkbox"
            checked={value === true}
            disabled={locked}
            aria-describedby={described}
            onChange={(e) => onChange(e.target.checked)}
          />
          <span>{spec.label}</span>
          <SettingTags meta={meta} />
        </label>
        <FieldNotes id={id} note={note} error={error} />
      </div>
    )
  }

  const text = typeof value === 'string' ? value : ''
  const common = {
    id,
    'data-testid': id,
    disabled: locked,
    'aria-invalid': error !== undefined,
    'aria-describedby': described,
  }
  let input: ReactNode
  if (spec.kind === 'select') {
    input = (
      <select {...common} value={text} onChange={(e) => onChange(e.target.value)}>
        {(spec.options ?? []).map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    )
  } else if (spec.kind === 'textarea') {
    input = (
      <textarea
        {...common}
        rows={spec.path === 'character.system' ? 5 : 2}
        spellCheck
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  } else {
    const numeric = spec.kind !== 'text'
    input = (
      <input
        {...common}
        type={numeric ? 'number' : 'text'}
        inputMode={numeric ? 'decimal' : undefined}
        min={spec.min}
        max={spec.max}
        step={spec.step ?? (numeric ? 'any' : undefined)}
        autoComplete="off"
        spellCheck={false}
        placeholder={spec.placeholder}
        value={text}
        onChange={(e) => onChange(e.target.value)}
      />
    )
  }

  return (
    <div className={`setting${spec.kind === 'textarea' ? ' setting-wide' : ''}`}>
      <label htmlFor={id} className="setting-label">
        {spec.label}
        <SettingTags meta={meta} />
      </label>
      {input}
      <FieldNotes id={id} note={note} error={error} />
    </div>
  )
}

export function FieldNotes({ id, note, error }: { id: string; note: ReactNode; error: string | undefined }) {
  return (
    <>
      {note ? (
        <span className="hint" id={`${id}-hint`}>
          {note}
        </span>
      ) : null}
      {error !== undefined ? (
        <span className="setting-error" id={`${id}-error`} data-testid={`${id}-error`}>
          {error}
        </span>
      ) : null}
    </>
  )
}
