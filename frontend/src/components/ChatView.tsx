import './ChatView.css'
import './attachments.css'
import { useEffect, useMemo } from 'react'
import { AttachmentDraft } from '../state/attachmentDraft'
import { streamingReply } from '../state/chat'
import { turnLabel } from '../state/turns'
import { useChat, useChatState } from '../state/useChat'
import { useAppState, useWisp } from '../state/WispProvider'
import { Composer } from './Composer'
import { ConversationExport } from './ConversationExport'
import { MessageList } from './MessageList'
import { useFileDrop } from './useFileDrop'

export function ChatView() {
  const chat = useChat()
  const { api, voice } = useWisp()
  const c = useChatState((s) => s)
  const turn = useAppState((s) => (s.chat.conversationId === null ? undefined : s.turns[s.chat.conversationId]))
  const label = turnLabel(turn)
  const agent = useAppState((s) => s.status?.agentName || 'Wisp')
  const reply = streamingReply(c)
  // The files of the message being written: a conversation of its own each (as the text is).
  const draft = useMemo(() => new AttachmentDraft({ api: () => api.get() }), [api, c.session])
  useEffect(() => () => draft.clear(), [draft])
  const drop = useFileDrop(!c.loading, (files) => draft.add(files))
  return (
    <section className="chat-view" aria-label="Chat" data-dragging={drop.dragging || undefined} {...drop.handlers}>
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
          draft={draft}
          onSend={chat.send}
          onStop={chat.stop}
          voice={voice}
        />
      </div>
      {drop.dragging ? (
        <div className="drop-target" data-testid="drop-target" aria-hidden="true">
          <p>Drop files to attach them</p>
        </div>
      ) : null}
    </section>
  )
}
