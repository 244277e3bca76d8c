import './Sidebar.css'
import { useMemo } from 'react'
import { awaitingConversations, awaitingElsewhere } from '../state/approvals'
import { useApprovals } from '../state/useApprovals'
import { useChat } from '../state/useChat'
import { useAppState } from '../state/WispProvider'
import { ConversationItem } from './ConversationItem'
import { Icon } from './Icon'
import { Search } from './Search'

/** The conversation list: newest first, a New chat button, rename and delete per row, unread marks. */
export function Sidebar() {
  const chat = useChat()
  const list = useAppState((s) => s.conversations)
  const activeId = useAppState((s) => s.chat.conversationId)
  const apiReady = useAppState((s) => s.apiReady)
  const turns = useAppState((s) => s.turns)
  const approvals = useApprovals()
  const awaiting = useMemo(() => awaitingConversations(approvals), [approvals])
  // The open conversation is marked too when its approval waits on a branch not shown.
  const shown = useAppState((s) => s.chat.messages)
  const elsewhere = useMemo(() => awaitingElsewhere(approvals, activeId, shown), [approvals, activeId, shown])
  return (
    <nav className="sidebar" aria-label="Conversations">
      <div className="sidebar-head">
        <h2 className="panel-title">Chats</h2>
        <button type="button" className="new-chat" data-testid="new-chat" onClick={() => chat.open(null)}>
          <Icon name="plus" /> New chat
        </button>
      </div>
      <Search />
      {list === null ? (
        <p className="empty">{apiReady ? 'Loading…' : 'Waiting for the server…'}</p>
      ) : list.length === 0 ? (
        <p className="empty">No conversations yet. Send a message to start one.</p>
      ) : (
        <ul className="conversation-list">
          {list.map((c) => (
            <ConversationItem
              key={c.id}
              conversation={c}
              active={c.id === activeId}
              busy={turns[c.id] !== undefined}
              unread={c.unread && c.id !== activeId}
              awaitingApproval={c.id === activeId ? elsewhere : awaiting.has(c.id)}
              onOpen={chat.open}
              onRename={chat.rename}
              onRemove={chat.remove}
            />
          ))}
        </ul>
      )}
    </nav>
  )
}
