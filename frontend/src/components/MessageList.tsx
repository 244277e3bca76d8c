import './MessageList.css'
import { Fragment, useCallback, useMemo } from 'react'
import { cardsOf, placeCards, type ApprovalCard as Card } from '../state/approvals'
import { extrasByRun, retryable, type ChatState } from '../state/chat'
import { useApprovalStore, useApprovals } from '../state/useApprovals'
import { useFocusRequest } from '../state/useMessageFocus'
import { ApprovalCard, type DecideFn } from './ApprovalCard'
import { ApprovalElsewhere } from './ApprovalElsewhere'
import { MessageBubble } from './MessageBubble'
import { summariesByMessage, type PageSide } from '../state/messageWindow'
import { SummaryRow } from './SummaryRow'
import { useMessageWindow } from './useMessageWindow'
import { useShowMessage } from './useShowMessage'

interface Props {
  chat: ChatState
  agentName: string
  onRetry(key: string): void
  onReload(): void
  /** Asks for the page before or after the loaded messages. */
  onPage(side: PageSide): void
}

/**
 * The open conversation's messages, windowed (useMessageWindow.ts): only the
 * rows near the viewport are drawn, pages load as the user scrolls, and it
 * opens at the bottom and follows a reply while the user has not scrolled up.
 */
export function MessageList({ chat, agentName, onRetry, onReload, onPage }: Props) {
  const keys = useMemo(() => chat.messages.map((m) => m.key), [chat.messages])
  const extras = useMemo(() => extrasByRun(chat.display), [chat.display])
  // A summary's row belongs to the row of the message it runs through (heights and paging see one row).
  const summaries = useMemo(() => summariesByMessage(chat.summaries), [chat.summaries])
  const cards = useApprovalCards(chat)
  // A run's cards go after its last message (the reply), not after the user's message.
  const lastOfRun = useMemo(() => new Map(chat.messages.flatMap((m) => (m.runId === undefined ? [] : [[m.runId, m.key] as const]))), [chat.messages])

  const request = useFocusRequest(chat.conversationId)
  const win = useMessageWindow({
    keys,
    hasOlder: chat.hasOlder,
    hasNewer: chat.hasNewer,
    windowSeq: chat.windowSeq,
    holdPlace: request !== null,
    onPage,
  })
  // A search result asked for one of its messages: brought into view and marked once loaded.
  useShowMessage(chat, request, win.reveal)
  const { start, end } = win.range

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
      <ol className="messages" aria-label="Messages" ref={win.list}>
        {chat.hasOlder ? (
          <li className="messages-more muted" data-testid="messages-older">
            Loading earlier messages…
          </li>
        ) : null}
        <li className="message-spacer" aria-hidden="true" ref={win.topSpacer} />
        {chat.messages.slice(start, end).map((m) => (
          <Fragment key={m.key}>
            <MessageBubble
              message={m}
              agentName={agentName}
              extras={m.live || m.runId === undefined ? undefined : extras.get(m.runId)}
              notices={m.role !== 'assistant' || m.runId === undefined ? undefined : extras.get(m.runId)?.notices}
              canRetry={retryable(chat, m.key)}
              onRetry={onRetry}
            />
            {m.id === null ? null : summaries.get(m.id)?.map((s) => <SummaryRow key={s.id} summary={s} />)}
            {m.runId === undefined || lastOfRun.get(m.runId) !== m.key ? null : (
              <ApprovalCards cards={cards.byRun.get(m.runId)} onDecide={cards.decide} />
            )}
          </Fragment>
        ))}
        <li className="message-spacer" aria-hidden="true" ref={win.bottomSpacer} />
        {chat.hasNewer ? (
          <li className="messages-more muted" data-testid="messages-newer">
            Loading later messages…
          </li>
        ) : (
          <ApprovalCards cards={cards.rest} onDecide={cards.decide} />
        )}
        <ApprovalElsewhere cards={cards.elsewhere} />
      </ol>
    )
  }
  return (
    <div className="message-scroller" ref={win.scroller} onScroll={win.onScroll} onWheel={win.onWheel}>
      <div ref={win.content}>{content}</div>
    </div>
  )
}

/** The approval cards of the open conversation: after the reply of their run, or last. */
function useApprovalCards(chat: ChatState): ReturnType<typeof placeCards> & { decide: DecideFn } {
  const approvals = useApprovals()
  const store = useApprovalStore()
  const decide = useCallback<DecideFn>((id, decision, note, bases, text) => void store?.decide(id, decision, note, bases, text), [store])
  const placed = useMemo(
    () =>
      placeCards(
        cardsOf(approvals, chat.conversationId),
        chat.messages.map((m) => m.runId),
        chat.messages.map((m) => m.id),
      ),
    [approvals, chat.conversationId, chat.messages],
  )
  return useMemo(() => ({ ...placed, decide }), [placed, decide])
}

function ApprovalCards({ cards, onDecide }: { cards: Card[] | undefined; onDecide: DecideFn }) {
  if (cards === undefined || cards.length === 0) return null
  return cards.map((c) => <ApprovalCard key={c.approval.id} card={c} onDecide={onDecide} />)
}
