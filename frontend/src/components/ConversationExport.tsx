// The chat view's toolbar: the context meter and cost, and export the open conversation.

import './export.css'
import { exportFormatFor } from '../state/archive'
import { useChatState } from '../state/useChat'
import { useWisp } from '../state/WispProvider'
import { ContextMeter } from './ContextMeter'
import { ExportActions } from './ExportActions'

export function ConversationExport({ conversationId }: { conversationId: string }) {
  const { exportConversations } = useWisp()
  // (Of the loaded messages: enough for the switch, which only picks a format.)
  const hasAttachments = useChatState((c) => c.messages.some((m) => (m.attachments?.length ?? 0) > 0))
  return (
    <div className="chat-toolbar">
      <ContextMeter />
      <ExportActions
        key={conversationId}
        what="this conversation"
        testId="export-conversation"
        onExport={(format) => exportConversations(conversationId, exportFormatFor(format, hasAttachments))}
      />
    </div>
  )
}
