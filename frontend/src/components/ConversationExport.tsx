// The chat view's toolbar: the context meter and cost, and export the open conversation.

import './export.css'
import { useWisp } from '../state/WispProvider'
import { ContextMeter } from './ContextMeter'
import { ExportActions } from './ExportActions'

export function ConversationExport({ conversationId }: { conversationId: string }) {
  const { exportConversations } = useWisp()
  return (
    <div className="chat-toolbar">
      <ContextMeter />
      <ExportActions
        key={conversationId}
        what="this conversation"
        testId="export-conversation"
        onExport={(format) => exportConversations(conversationId, format)}
      />
    </div>
  )
}
