// The chat view's toolbar: export the open conversation.

import { useWisp } from '../state/WispProvider'
import { exportConversations, pageSink } from '../state/archive'
import { ExportActions } from './ExportActions'

export function ConversationExport({ conversationId }: { conversationId: string }) {
  const { api } = useWisp()
  return (
    <div className="chat-toolbar">
      <ExportActions
        key={conversationId}
        what="this conversation"
        testId="export-conversation"
        onExport={(format) =>
          api === null
            ? Promise.reject(new Error('not connected to the Wisp server yet'))
            : exportConversations(api, conversationId, format, pageSink())
        }
      />
    </div>
  )
}
