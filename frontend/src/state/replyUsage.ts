// What a reply of the open conversation cost, once it has ended: the reply
// streamed without it (its done frame has tokens but no price), so its saved
// message is read (GET …/messages?around=<id>&limit=1) and its usage put on
// its bubble. Outside React; WispPage makes one.

import type { ApiClient } from '../api'
import type { AppStore } from './appStore'
import { errorMessage } from './chatRunner'

/** Follows app's open conversation; returns the function that stops. */
export function followReplyUsage(app: AppStore, api: () => ApiClient | null): () => void {
  let streaming = new Set<string>()
  return app.subscribe(() => {
    const { chat } = app.get()
    const now = new Set<string>()
    for (const m of chat.messages) {
      if (m.status === 'streaming') now.add(m.key)
      // A reply that ended in this page's stream (one read from the server has its usage already).
      else if (streaming.has(m.key) && m.live && m.status === 'done' && m.id !== null && m.usage === undefined && chat.conversationId !== null) {
        void readUsage(app, api(), chat.conversationId, m.id)
      }
    }
    streaming = now
  })
}

async function readUsage(app: AppStore, client: ApiClient | null, conversationId: string, messageId: string): Promise<void> {
  if (client === null) return
  try {
    const { messages } = await client.listMessages(conversationId, { around: messageId, limit: 1 })
    const usage = messages.find((m) => m.id === messageId)?.usage
    if (usage !== undefined) app.dispatch({ type: 'chat-usage', conversationId, messageId, usage })
  } catch (err) {
    console.warn('wisp chat: cannot read what the reply cost:', errorMessage(err))
  }
}
