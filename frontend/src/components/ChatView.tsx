import { streamingReply } from '../state/chat'
import { turnLabel } from '../state/turns'
import { useWisp } from '../state/WispProvider'
import { Composer } from './Composer'
import { ConversationExport } from './ConversationExport'
import { MessageList } from './MessageList'

export function ChatView() {
  const { state, chat } = useWisp()
  const c = state.chat
  const turn = c.conversationId === null ? undefined : state.turns[c.conversationId]
  const label = turnLabel(turn)
  const agent = state.status?.agentName || 'Wisp'
  const reply = streamingReply(c)
  return (
    <section className="chat-view" aria-label="Chat">
      {c.conversationId !== null ? <ConversationExport conversationId={c.conversationId} /> : null}
      <MessageList chat={c} agentName={agent} onRetry={chat.retry} onReload={() => chat.open(c.conversationId)} />
      <div className="chat-footer">
        <p className="turn-status" data-testid="turn-status" aria-live="polite">
          {label === null ? '' : `${agent} is ${label}`}
        </p>
        <Composer
          key={c.session}
          disabled={c.loading}
          replying={reply !== undefined}
          stopping={reply?.stopping === true}
          onSend={chat.send}
          onStop={chat.stop}
        />
      </div>
    </section>
  )
}
