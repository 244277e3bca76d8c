// The chat view's toolbar: export the open conversation.

import './export.css'
import { useWisp } from '../state/WispProvider'
import { ExportActions } from './ExportActions'

export function ConversationExport({ conversationId }: { conversationId: string }) {
  const { exportConversations } = useWisp()
  return (
    <div className="chat-toolbar">
      <ExportActions
        key={conversationId}
        what="this conversation"
        testId="export-conversation"
        onExport={(format) => exportConversations(conversationId, format)}
      />
    </div>
  )
}
