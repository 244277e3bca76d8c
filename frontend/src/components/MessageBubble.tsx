import './MessageBubble.css'
import { memo } from 'react'
import { formatTimestamp } from '../format'
import { USER_STOP_REASON, type ChatMessageView, type RunExtras } from '../state/chat'
import { withLive } from '../state/liveReply'
import { sourceLabel } from '../state/proactive'
import { useLiveReply } from '../state/useLiveReply'
import { Icon } from './Icon'
import { Markdown } from './Markdown'
import { ThinkingBlock } from './ThinkingBlock'
import { ToolCard } from './ToolCard'

interface Props {
  message: ChatMessageView
  agentName: string
  /** Thinking and tools of a past reply, from display messages (live replies carry their own). */
  extras: RunExtras | undefined
  canRetry: boolean
  onRetry(key: string): void
}

/**
 * One message. A streaming reply reads its text, thinking and tools from the
 * ReplyStore, so each token re-renders this bubble and nothing else.
 */
export const MessageBubble = memo(function MessageBubble({ message, agentName, extras, canRetry, onRetry }: Props) {
  const live = useLiveReply(message.status === 'streaming' ? message.key : null)
  const m = live === undefined ? message : withLive(message, live)
  const who = m.role === 'user' ? 'You' : agentName
  const label = m.role === 'assistant' ? sourceLabel(m.source) : null
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
      {m.role === 'user' ? (
        <div className="message-text user-text" data-testid="message-text">
          {m.text}
        </div>
      ) : (
        <ReplyBody message={m} extras={extras} canRetry={canRetry} onRetry={onRetry} />
      )}
    </li>
  )
})

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

function ReplyBody({ message: m, extras, canRetry, onRetry }: Omit<Props, 'agentName'>) {
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
          <Markdown text={m.text} />
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
