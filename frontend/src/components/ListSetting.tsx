// A setting that is a list of strings (Settings → Files and web: folders,
// hosts): the items, each with Remove, and an input with Add. Enter in the
// input adds (it lives inside the settings <form>, which it must not submit);
// what the check refuses shows under the input.

import { useId, useState, type KeyboardEvent, type ReactNode } from 'react'

interface Props {
  /** Prefix of the test ids and the input's id ("files-roots"). */
  name: string
  label: string
  /** What the empty list means. */
  empty: ReactNode
  hint?: ReactNode
  items: readonly string[]
  placeholder: string
  disabled: boolean
  /** The item as it is kept, or why the text is refused. */
  check(text: string, items: readonly string[]): { ok: true; value: string } | { ok: false; error: string }
  onChange(items: string[]): void
}

export function ListSetting({ name, label, empty, hint, items, placeholder, disabled, check, onChange }: Props) {
  const [text, setText] = useState('')
  const [error, setError] = useState<string | null>(null)
  const id = `setting-${name}`
  const labelId = useId()
  const add = () => {
    const result = check(text, items)
    if (!result.ok) {
      setError(result.error)
      return
    }
    onChange([...items, result.value])
    setText('')
    setError(null)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'Enter') return
    e.preventDefault()
    add()
  }
  return (
    <div className="setting setting-wide list-setting" data-testid={`${name}-setting`}>
      <span id={labelId} className="setting-label">
        {label}
      </span>
      {items.length === 0 ? (
        <p className="hint list-setting-empty" data-testid={`${name}-empty`}>
          {empty}
        </p>
      ) : (
        <ul className="list-setting-items" aria-labelledby={labelId} data-testid={`${name}-list`}>
          {items.map((item) => (
            <li key={item} data-testid={`${name}-item`}>
              <code>{item}</code>
              <button type="button" className="link-button" aria-label={`Remove ${item}`} disabled={disabled} onClick={() => onChange(items.filter((x) => x !== item))}>
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="setting-row">
        <label htmlFor={id} className="visually-hidden">
          Add to {label.toLowerCase()}
        </label>
        <input
          id={id}
          data-testid={`${name}-input`}
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          value={text}
          disabled={disabled}
          aria-invalid={error !== null}
          aria-describedby={error !== null ? `${id}-error` : hint !== undefined ? `${id}-hint` : undefined}
          onChange={(e) => {
            setText(e.target.value)
            setError(null)
          }}
          onKeyDown={onKeyDown}
        />
        <button type="button" className="header-button" data-testid={`${name}-add`} disabled={disabled || text.trim() === ''} onClick={add}>
          Add
        </button>
      </div>
      {error !== null ? (
        <span id={`${id}-error`} className="setting-error" role="alert" data-testid={`${name}-error`}>
          {error}
        </span>
      ) : hint !== undefined ? (
        <span id={`${id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
    </div>
  )
}
