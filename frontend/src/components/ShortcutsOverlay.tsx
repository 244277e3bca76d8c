// The `?` overlay: every keyboard shortcut (state/shortcuts.ts) with its keys
// on this platform. Esc, `?`, the close button or a click outside closes it,
// and focus goes back where it was.

import './dialog.css'
import './ShortcutsOverlay.css'
import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react'
import { SHORTCUTS, isMacPlatform } from '../state/shortcuts'
import { trapTab, useKeepFocus, useRestoreFocus } from './dialogFocus'

interface Props {
  onClose(): void
}

export function ShortcutsOverlay({ onClose }: Props) {
  const mac = useMemo(isMacPlatform, [])
  const close = useRef<HTMLButtonElement>(null)
  const dialog = useRef<HTMLDivElement>(null)
  useRestoreFocus()
  useEffect(() => close.current?.focus(), [])
  useKeepFocus(dialog, close)

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Tab') {
      trapTab(e, dialog.current)
      return
    }
    if (e.key !== 'Escape' && e.key !== '?') return
    e.preventDefault()
    e.stopPropagation()
    onClose()
  }

  return (
    <div className="picker-backdrop" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={dialog}
        className="dialog-panel shortcuts"
        tabIndex={-1}
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        data-testid="shortcuts-overlay"
        onKeyDown={onKeyDown}
      >
        <div className="shortcuts-head">
          <h2 id="shortcuts-title">Keyboard shortcuts</h2>
          <button ref={close} type="button" className="icon-button" aria-label="Close" data-testid="shortcuts-close" onClick={onClose}>
            ×
          </button>
        </div>
        <dl className="shortcuts-list">
          {SHORTCUTS.map((s) => (
            <div key={s.label} className="shortcut" data-testid="shortcut" data-shortcut={s.id ?? ''}>
              <dt>
                <kbd>{mac ? s.keys.mac : s.keys.other}</kbd>
              </dt>
              <dd>
                {s.label}
                {s.where === undefined ? null : <span className="muted"> ({s.where})</span>}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </div>
  )
}
