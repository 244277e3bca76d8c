import { useState, type KeyboardEvent } from 'react'
import type { Conversation } from '../api'
import { Icon } from './Icon'

interface Props {
  conversation: Conversation
  active: boolean
  /** A reply is being written in it (heartbeat). */
  busy: boolean
  /** Wisp said something in it on its own that has not been read. */
  unread: boolean
  /** A shell command in it waits for the user's approval (shown when it is not open). */
  awaitingApproval?: boolean
  onOpen(id: string): void
  onRename(id: string, title: string): Promise<void>
  onRemove(id: string): Promise<void>
}

type Mode = 'view' | 'rename' | 'confirm-delete'

/** One sidebar row: open on click; rename inline (Enter saves, Escape cancels); delete after a confirm. */
export function ConversationItem({ conversation, active, busy, unread, awaitingApproval = false, onOpen, onRename, onRemove }: Props) {
  const [mode, setMode] = useState<Mode>('view')
  const [draft, setDraft] = useState('')
  const [pending, setPending] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const title = conversation.title || 'Untitled'

  const run = async (action: () => Promise<void>) => {
    setPending(true)
    setError(null)
    try {
      await action()
      setMode('view')
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setPending(false)
    }
  }

  const startRename = () => {
    setDraft(conversation.title)
    setError(null)
    setMode('rename')
  }

  const saveRename = () => {
    const next = draft.trim()
    if (next === '' || next === conversation.title) {
      setMode('view')
      return
    }
    void run(() => onRename(conversation.id, next))
  }

  const onRenameKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.nativeEvent.isComposing) return
    if (e.key === 'Enter') {
      e.preventDefault()
      saveRename()
    } else if (e.key === 'Escape') {
      e.preventDefault()
      setError(null)
      setMode('view')
    }
  }

  return (
    <li
      className={`conversation-item${active ? ' active' : ''}${unread ? ' unread' : ''}`}
      data-testid="conversation-item"
      data-active={active}
      data-unread={unread}
      data-id={conversation.id}
      data-conversation-id={conversation.id}
    >
      {mode === 'rename' ? (
        <input
          className="rename-input"
          data-testid="rename-input"
          aria-label="Conversation title"
          value={draft}
          maxLength={200}
          autoFocus
          disabled={pending}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={onRenameKey}
          onBlur={() => {
            if (!pending) setMode('view')
          }}
        />
      ) : mode === 'confirm-delete' ? (
        <div className="confirm-delete" role="group" aria-label={`Delete ${title}?`}>
          <span className="confirm-text">Delete this chat?</span>
          <button
            type="button"
            className="danger"
            data-testid="confirm-delete"
            disabled={pending}
            onClick={() => void run(() => onRemove(conversation.id))}
          >
            Delete
          </button>
          <button type="button" disabled={pending} onClick={() => setMode('view')} autoFocus>
            Cancel
          </button>
        </div>
      ) : (
        <>
          <button
            type="button"
            className="conversation-open"
            title={unread ? `${title} (unread)` : title}
            aria-current={active ? 'page' : undefined}
            onClick={() => onOpen(conversation.id)}
          >
            <span className="conversation-title" data-testid="conversation-title">
              {title}
            </span>
            {busy ? <span className="busy-dot" title="Replying…" aria-label="replying" /> : null}
            {awaitingApproval ? (
              <span
                className="approval-mark"
                role="img"
                title="A command waits for your approval"
                aria-label="waiting for your approval"
                data-testid="approval-pending-mark"
              >
                !
              </span>
            ) : null}
            {unread ? (
              <span className="unread-dot" role="img" title="Unread" aria-label="unread" data-testid="unread-dot" />
            ) : null}
          </button>
          <span className="row-actions">
            <button type="button" className="icon-button" aria-label="Rename" title="Rename" data-testid="rename-conversation" onClick={startRename}>
              <Icon name="pencil" />
            </button>
            <button
              type="button"
              className="icon-button"
              aria-label="Delete"
              title="Delete"
              data-testid="delete-conversation"
              onClick={() => {
                setError(null)
                setMode('confirm-delete')
              }}
            >
              <Icon name="trash" />
            </button>
          </span>
        </>
      )}
      {error !== null ? (
        <p className="row-error" role="alert">
          {error}
        </p>
      ) : null}
    </li>
  )
}
