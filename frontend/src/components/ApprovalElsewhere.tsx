import { approvalMessageId } from '../api/approvalDecode'
import type { ApprovalCard } from '../state/approvals'
import { useChat } from '../state/useChat'

/**
 * The approvals waiting on a branch of the conversation that is not shown: a
 * line that shows that branch (the approval's card is then under its reply),
 * instead of their cards.
 */
export function ApprovalElsewhere({ cards }: { cards: readonly ApprovalCard[] }) {
  const chat = useChat()
  const first = cards[0]
  const messageId = first === undefined ? null : approvalMessageId(first.approval)
  if (messageId === null) return null
  return (
    <li className="chat-note notice approval-elsewhere" role="status" data-testid="approval-elsewhere">
      {cards.length === 1 ? 'An approval is waiting' : `${cards.length} approvals are waiting`} on another branch —{' '}
      <button type="button" className="link-button" data-testid="approval-elsewhere-show" onClick={() => void chat.showBranch(messageId)}>
        Show it
      </button>
    </li>
  )
}
