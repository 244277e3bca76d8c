import { Fragment, useCallback, useLayoutEffect, useMemo, useRef } from 'react'
import { cardsOf, placeCards, type ApprovalCard as Card } from '../state/approvals'
import { extrasByRun, retryable, type ChatState } from '../state/chat'
import { useApprovalStore, useApprovals } from '../state/useApprovals'
import { ApprovalCard, type DecideFn } from './ApprovalCard'
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
  const cards = useApprovalCards(chat)
  // A run's cards go after its last message (the reply), not after the user's message.
  const lastOfRun = useMemo(() => new Map(chat.messages.flatMap((m) => (m.runId === undefined ? [] : [[m.runId, m.key] as const]))), [chat.messages])

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
  useLayoutEffect(follow, [follow, chat.messages, chat.session, cards])

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
  } else if (chat.messages.length === 0 && cards.rest.length === 0) {
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
          <Fragment key={m.key}>
            <MessageBubble
              message={m}
              agentName={agentName}
              extras={m.live || m.runId === undefined ? undefined : extras.get(m.runId)}
              canRetry={retryable(chat, m.key)}
              onRetry={onRetry}
              onGrow={follow}
            />
            {m.runId === undefined || lastOfRun.get(m.runId) !== m.key ? null : (
              <ApprovalCards cards={cards.byRun.get(m.runId)} onDecide={cards.decide} />
            )}
          </Fragment>
        ))}
        <ApprovalCards cards={cards.rest} onDecide={cards.decide} />
      </ol>
    )
  }
  return (
    <div className="message-scroller" ref={scroller} onScroll={onScroll}>
      {content}
    </div>
  )
}

/** The approval cards of the open conversation: after the reply of their run, or last. */
function useApprovalCards(chat: ChatState): ReturnType<typeof placeCards> & { decide: DecideFn } {
  const approvals = useApprovals()
  const store = useApprovalStore()
  const decide = useCallback<DecideFn>((id, decision, note, bases) => void store?.decide(id, decision, note, bases), [store])
  const placed = useMemo(
    () => placeCards(cardsOf(approvals, chat.conversationId), chat.messages.map((m) => m.runId)),
    [approvals, chat.conversationId, chat.messages],
  )
  return useMemo(() => ({ ...placed, decide }), [placed, decide])
}

function ApprovalCards({ cards, onDecide }: { cards: Card[] | undefined; onDecide: DecideFn }) {
  if (cards === undefined || cards.length === 0) return null
  return cards.map((c) => <ApprovalCard key={c.approval.id} card={c} onDecide={onDecide} />)
}
