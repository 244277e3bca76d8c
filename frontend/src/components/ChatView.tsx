import './ChatView.css'
import { streamingReply } from '../state/chat'
import { turnLabel } from '../state/turns'
import { useChat, useChatState } from '../state/useChat'
import { useAppState } from '../state/WispProvider'
import { Composer } from './Composer'
import { ConversationExport } from './ConversationExport'
import { MessageList } from './MessageList'

export function ChatView() {
  const chat = useChat()
  const c = useChatState((s) => s)
  const turn = useAppState((s) => (s.chat.conversationId === null ? undefined : s.turns[s.chat.conversationId]))
  const label = turnLabel(turn)
  const agent = useAppState((s) => s.status?.agentName || 'Wisp')
  const reply = streamingReply(c)
  return (
    <section className="chat-view" aria-label="Chat">
      {c.conversationId !== null ? <ConversationExport conversationId={c.conversationId} /> : null}
      <MessageList chat={c} agentName={agent} onRetry={chat.retry} onReload={() => chat.open(c.conversationId)} onPage={chat.page} />
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
