import { useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react'
import type { Attachment } from '../api'
import { formatSize } from '../state/attachmentDraft'
import { AttachmentIcon } from './AttachmentIcon'
import { Icon } from './Icon'
import { isSendKey, isStopKey, MAX_MESSAGE_CHARS, messageText } from './Composer'

interface Props {
  /** The message's text, where editing starts. */
  text: string
  /** The message's files: the new version keeps them unless removed here. */
  attachments?: readonly Attachment[]
  /** Sends the new text and the files kept as a new version; false when it cannot now (the editor stays). */
  onSend(text: string, attachments: Attachment[]): boolean
  onCancel(): void
}

/**
 * A user message edited in place: Enter sends the new text as a new branch,
 * Shift+Enter starts a new line, Escape cancels (the bubble then gives the
 * focus back to its pencil).
 */
export function MessageEditor({ text: initial, attachments = [], onSend, onCancel }: Props) {
  const [draft, setDraft] = useState(initial)
  const [kept, setKept] = useState<Attachment[]>(() => [...attachments])
  const area = useRef<HTMLTextAreaElement>(null)
  const composing = useRef(false)
  const text = messageText(draft)
  const canSend = (text !== '' || kept.length > 0) && text.length <= MAX_MESSAGE_CHARS

  useLayoutEffect(() => {
    const el = area.current
    if (el === null) return
    el.focus()
    el.setSelectionRange?.(el.value.length, el.value.length)
  }, [])

  const send = () => {
    if (canSend) onSend(text, kept)
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
      {kept.length > 0 ? (
        <ul className="draft-attachments" aria-label="Files of the message">
          {kept.map((a) => (
            <li key={a.id} className="attachment-chip draft-chip" data-attachment-chip="" data-attachment-id={a.id} data-uploading="false" title={a.name}>
              <AttachmentIcon kind={a.kind} />
              <span className="attachment-name">{a.name}</span>
              <span className="attachment-size muted">{formatSize(a.size)}</span>
              <button
                type="button"
                className="attachment-remove"
                aria-label={`Remove ${a.name}`}
                data-testid="attachment-remove"
                onClick={() => setKept((k) => k.filter((x) => x.id !== a.id))}
              >
                <Icon name="x" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
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
