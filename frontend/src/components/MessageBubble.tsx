import './MessageBubble.css'
import { memo, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { formatTimestamp } from '../format'
import { branchesLocked, versionsOf } from '../state/branches'
import { USER_STOP_REASON, type ChatMessageView, type RunExtras } from '../state/chat'
import { withLive } from '../state/liveReply'
import { isProactiveSource, sourceLabel } from '../state/proactive'
import { useChat, useChatState } from '../state/useChat'
import { useLiveReply } from '../state/useLiveReply'
import { BranchNav } from './BranchNav'
import { Icon } from './Icon'
import { Markdown } from './Markdown'
import { MessageAttachments } from './MessageAttachments'
import { MessageEditor } from './MessageEditor'
import { MessageUsage } from './MessageUsage'
import { ThinkingBlock } from './ThinkingBlock'
import { ToolCard } from './ToolCard'

interface Props {
  message: ChatMessageView
  agentName: string
  /** Thinking and tools of a past reply, from display messages (live replies carry their own). */
  extras: RunExtras | undefined
  /** The run's notices (a model that cannot see images), live or saved. */
  notices?: readonly string[] | undefined
  canRetry: boolean
  onRetry(key: string): void
}

/**
 * One message. A streaming reply reads its text, thinking and tools from the
 * ReplyStore, so each token re-renders this bubble and nothing else. Under
 * it: its versions (‹ 2 / 3 ›), and a pencil that edits a question in place
 * or Regenerate for a reply.
 */
export const MessageBubble = memo(function MessageBubble({ message, agentName, extras, notices, canRetry, onRetry }: Props) {
  const live = useLiveReply(message.status === 'streaming' ? message.key : null)
  const m = live === undefined ? message : withLive(message, live)
  const who = m.role === 'user' ? 'You' : agentName
  const label = m.role === 'assistant' || m.source === 'task' ? sourceLabel(m.source) : null
  const [editing, setEditing] = useState(false)
  const pencil = useRef<HTMLButtonElement>(null)
  const refocus = useRef(false)
  // Escape (or Cancel) gives the focus back to the pencil.
  useLayoutEffect(() => {
    if (editing || !refocus.current) return
    refocus.current = false
    pencil.current?.focus()
  }, [editing])
  const cancel = () => {
    refocus.current = true
    setEditing(false)
  }
  return (
    <li
      className={`message role-${m.role} status-${m.status}${label === null ? '' : ' proactive'}`}
      data-testid="message"
      data-role={m.role}
      data-status={m.status}
      data-source={m.source}
      data-message-id={m.id ?? undefined}
      title={`${who}, ${formatTimestamp(m.timestamp)}`}
    >
      {label !== null ? <SourceLabel source={m.source ?? ''} label={label} late={m.late === true} /> : null}
      {notices?.map((n, i) => (
        <p key={i} className="message-notice" role="note" data-testid="message-notice">
          {n}
        </p>
      ))}
      {m.role === 'user' && editing ? (
        <EditBody message={m} onDone={() => setEditing(false)} onCancel={cancel} />
      ) : m.role === 'user' ? (
        <>
          {m.attachments !== undefined && m.attachments.length > 0 ? <MessageAttachments attachments={m.attachments} /> : null}
          {m.text !== '' || m.attachments === undefined || m.attachments.length === 0 ? (
            <div className="message-text user-text" data-testid="message-text">
              {m.text}
            </div>
          ) : null}
        </>
      ) : (
        <ReplyBody message={m} extras={extras} canRetry={canRetry} onRetry={onRetry} />
      )}
      {m.role === 'assistant' && m.usage !== undefined ? <MessageUsage usage={m.usage} /> : null}
      {editing ? null : <MessageActions message={m} proactive={isProactiveSource(m.source)} pencil={pencil} onEdit={() => setEditing(true)} />}
    </li>
  )
})

function EditBody({ message: m, onDone, onCancel }: { message: ChatMessageView; onDone(): void; onCancel(): void }) {
  const chat = useChat()
  const own = m.attachments ?? []
  return (
    <MessageEditor
      text={m.text}
      attachments={own}
      // A message with files says which it keeps; one without lets the server keep its none.
      onSend={(text, kept) => chat.edit(m.key, text, own.length > 0 ? kept : undefined) && (onDone(), true)}
      onCancel={onCancel}
    />
  )
}

interface ActionsProps {
  message: ChatMessageView
  proactive: boolean
  pencil: RefObject<HTMLButtonElement | null>
  onEdit(): void
}

/** ‹ 2 / 3 › when the message has other versions; the pencil of a question; Regenerate of a reply. */
function MessageActions({ message: m, proactive, pencil, onEdit }: ActionsProps) {
  const chat = useChat()
  // Its own subscription: a reply that starts or ends re-renders these buttons, not the bubbles.
  const busy = useChatState(branchesLocked)
  const versions = versionsOf(m)
  const editable = m.role === 'user' && !proactive
  const regenerable = m.role === 'assistant' && !proactive && m.status !== 'streaming' && m.id !== null && m.prompt !== undefined
  if (versions.length < 2 && !editable && !regenerable) return null
  return (
    <div className="message-actions" data-testid="message-actions">
      {versions.length > 1 ? (
        <BranchNav
          messageId={m.id}
          ids={versions}
          index={m.siblingIndex ?? 0}
          disabled={busy}
          onShow={(id, focus) => {
            chat.focusBranchOnShow(id, focus)
            void chat.showBranch(id)
          }}
        />
      ) : null}
      {editable ? (
        <button
          ref={pencil}
          type="button"
          className="icon-button"
          aria-label="Edit message"
          title="Edit (a new version)"
          data-testid="edit-message"
          disabled={busy}
          onClick={onEdit}
        >
          <Icon name="pencil" />
        </button>
      ) : null}
      {regenerable ? (
        <button
          type="button"
          className="message-action"
          aria-label="Regenerate the reply"
          title="Ask again (a new version)"
          data-testid="regenerate"
          disabled={busy}
          onClick={() => chat.regenerate(m.key)}
        >
          Regenerate
        </button>
      ) : null}
    </div>
  )
}

/** What made Wisp say this on its own: "Reminder" (and "late"), "On its own", "Terminal". */
function SourceLabel({ source, label, late }: { source: string; label: string; late: boolean }) {
  return (
    <div className={`message-source source-${source}`} data-testid="message-source">
      <span className="message-source-label">{label}</span>
      {late ? (
        <span className="tag tag-late" data-testid="message-late" title="Delivered more than a minute after its time">
          late
        </span>
      ) : null}
    </div>
  )
}

function ReplyBody({ message: m, extras, canRetry, onRetry }: Omit<Props, 'agentName' | 'notices'>) {
  const thinking = extras?.thinking ?? m.thinking
  const tools = extras?.tools ?? m.tools
  const streaming = m.status === 'streaming'
  const working = streaming && tools.some((t) => t.status === 'executing' || t.status === 'pending')
  // A command waits for the user's approval: its card below says so, not "writing".
  const waiting = streaming && tools.some((t) => t.status === 'waiting')
  return (
    <>
      {thinking !== '' ? <ThinkingBlock text={thinking} active={streaming && m.text === '' && !working} /> : null}
      {tools.length > 0 ? (
        <div className="tool-cards">
          {tools.map((t) => (
            <ToolCard key={t.callId} tool={t} />
          ))}
        </div>
      ) : null}
      {m.text !== '' ? (
        <div className="message-text" data-testid="message-text">
          <Markdown text={m.text} live={m.live} />
        </div>
      ) : streaming && !working && !waiting ? (
        <span className="typing-dots" role="status" aria-label="Writing a reply">
          <span />
          <span />
          <span />
        </span>
      ) : null}
      {working ? (
        <p className="working" role="status">
          <span className="spinner" aria-hidden="true" /> working…
        </p>
      ) : null}
      {m.status === 'error' ? (
        <div className="message-error" role="alert" data-testid="message-error">
          <span>{m.error || 'The reply failed.'}</span>
          {canRetry ? (
            <button type="button" data-testid="retry" onClick={() => onRetry(m.key)}>
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
      {m.status === 'stopped' ? (
        <div className="message-stopped" data-testid="message-stopped">
          <span className="message-stopped-label">
            <Icon name="stop" />
            Stopped
            {m.stopReason !== undefined && m.stopReason !== USER_STOP_REASON ? (
              <span className="muted">: {m.stopReason}</span>
            ) : null}
          </span>
          {canRetry ? (
            <button type="button" className="link-button" data-testid="retry" onClick={() => onRetry(m.key)}>
              Retry
            </button>
          ) : null}
        </div>
      ) : null}
    </>
  )
}
