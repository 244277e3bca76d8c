import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import { isSendKey, isStopKey, MAX_MESSAGE_CHARS, messageText } from './Composer'

interface Props {
  /** The message's text, where editing starts. */
  text: string
  /** Sends the new text as a new version; false when it cannot now (the editor stays). */
  onSend(text: string): boolean
  onCancel(): void
}

/**
 * A user message edited in place: Enter sends the new text as a new branch,
 * Shift+Enter starts a new line, Escape cancels (the bubble then gives the
 * focus back to its pencil).
 */
export function MessageEditor({ text: initial, onSend, onCancel }: Props) {
  const [draft, setDraft] = useState(initial)
  const area = useRef<HTMLTextAreaElement>(null)
  const composing = useRef(false)
  const text = messageText(draft)
  const canSend = text !== '' && text.length <= MAX_MESSAGE_CHARS

  useLayoutEffect(() => {
    const el = area.current
    if (el === null) return
    el.focus()
    el.setSelectionRange?.(el.value.length, el.value.length)
  }, [])

  const send = () => {
    if (canSend) onSend(text)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const native = e.nativeEvent
    const typed = { key: e.key, shiftKey: e.shiftKey, isComposing: native.isComposing, keyCode: native.keyCode }
    if (isStopKey(typed, composing.current)) {
      e.preventDefault()
      e.stopPropagation()
      onCancel()
      return
    }
    if (!isSendKey(typed, composing.current)) return
    e.preventDefault()
    e.stopPropagation()
    send()
  }

  return (
    <div className="message-editor" data-testid="message-editor">
      <textarea
        ref={area}
        className="message-editor-text"
        aria-label="Edit your message"
        data-testid="message-editor-text"
        rows={Math.min(10, Math.max(2, draft.split('\n').length))}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onCompositionStart={() => (composing.current = true)}
        onCompositionEnd={() => (composing.current = false)}
      />
      <div className="message-editor-actions">
        <span className="muted">Enter sends a new version · Esc cancels</span>
        <button type="button" className="link-button" data-testid="message-editor-cancel" onClick={onCancel}>
          Cancel
        </button>
        <button type="button" className="primary" data-testid="message-editor-send" disabled={!canSend} onClick={send}>
          Send
        </button>
      </div>
    </div>
  )
}
