import { useCallback, useLayoutEffect, useMemo, useRef } from 'react'
import { extrasByRun, retryable, type ChatState } from '../state/chat'
import { MessageBubble } from './MessageBubble'

interface Props {
  chat: ChatState
  agentName: string
  onRetry(key: string): void
  onReload(): void
}

/** Pixels from the bottom within which the list keeps following new text. */
const STICK_PX = 48

export function MessageList({ chat, agentName, onRetry, onReload }: Props) {
  const scroller = useRef<HTMLDivElement>(null)
  const stick = useRef(true)
  const extras = useMemo(() => extrasByRun(chat.display), [chat.display])

  useLayoutEffect(() => {
    stick.current = true
  }, [chat.session])

  // Keeps the bottom in view while the user has not scrolled up: when the
  // messages change, and when a streaming bubble grows (it says so itself; a
  // token does not re-render this list).
  const follow = useCallback(() => {
    const el = scroller.current
    if (el !== null && stick.current) el.scrollTop = el.scrollHeight
  }, [])
  useLayoutEffect(follow, [follow, chat.messages, chat.session])

  const onScroll = () => {
    const el = scroller.current
    if (el !== null) stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
  }

  let content
  if (chat.loading) {
    content = <p className="chat-note muted">Loading the conversation…</p>
  } else if (chat.loadError !== null) {
    content = (
      <div className="chat-note notice notice-error" role="alert">
        Could not load this conversation: {chat.loadError}{' '}
        <button type="button" className="link-button" onClick={onReload}>
          Try again
        </button>
      </div>
    )
  } else if (chat.messages.length === 0) {
    content = (
      <div className="chat-note chat-welcome">
        <h2>Chat with {agentName}</h2>
        <p className="muted">Type a message below. Enter sends, Shift+Enter starts a new line.</p>
      </div>
    )
  } else {
    content = (
      <ol className="messages" aria-label="Messages">
        {chat.messages.map((m) => (
          <MessageBubble
            key={m.key}
            message={m}
            agentName={agentName}
            extras={m.live || m.runId === undefined ? undefined : extras.get(m.runId)}
            canRetry={retryable(chat, m.key)}
            onRetry={onRetry}
            onGrow={follow}
          />
        ))}
      </ol>
    )
  }
  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll}>
      {content}
    </div>
  )
}
