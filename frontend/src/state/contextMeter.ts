// The open conversation's context meter and cost, outside React: what the
// next turn would send of the model's window (GET …/context) and what the
// conversation has cost (GET …/usage). Read again when the conversation
// opens, when a reply of it ends, and when one of its summaries changes
// (conversation-summary, or this page's own); an answer for a conversation no
// longer open, or older than a later read, is dropped.

import type { ApiClient, ContextInfo, ConversationUsage } from '../api'
import type { AppStore } from './appStore'
import { isReplying } from './chat'
import { errorMessage } from './chatRunner'
import { Store } from './store'

export interface MeterState {
  conversationId: string | null
  context: ContextInfo | null
  usage: ConversationUsage | null
  /** Why the last read of the context failed (null after a success). */
  error: string | null
}

const EMPTY: MeterState = { conversationId: null, context: null, usage: null, error: null }

export class ContextMeter extends Store<MeterState> {
  private generation = 0
  private readonly api: () => ApiClient | null

  constructor(api: () => ApiClient | null) {
    super(EMPTY)
    this.api = api
  }

  /**
   * Follows the open conversation of app: reads the meter when another
   * conversation opens (or a new chat gets its id) and when its replies end.
   * Returns the function that stops.
   */
  follow(app: AppStore): () => void {
    let { conversationId } = app.get().chat
    let replying = isReplying(app.get().chat)
    return app.subscribe(() => {
      const chat = app.get().chat
      const nowReplying = isReplying(chat)
      if (chat.conversationId !== conversationId) {
        conversationId = chat.conversationId
        replying = nowReplying
        this.show(conversationId)
        return
      }
      if (replying && !nowReplying) void this.refresh()
      replying = nowReplying
    })
  }

  /** Shows another conversation's meter (null: a new chat, no meter). */
  show(conversationId: string | null): void {
    this.generation++
    this.set({ ...EMPTY, conversationId })
    void this.refresh()
  }

  /** A summary of conversationId changed: read its meter again if it is the one shown. */
  summaryChanged(conversationId: string): void {
    if (conversationId === this.get().conversationId) void this.refresh()
  }

  /** Reads the meter and the cost of the conversation shown again (nothing without one, or before the API). */
  readonly refresh = async (): Promise<void> => {
    const api = this.api()
    const { conversationId } = this.get()
    if (api === null || conversationId === null) return
    const gen = ++this.generation
    const [context, usage] = await Promise.allSettled([
      api.context.getContext(conversationId),
      api.context.getConversationUsage(conversationId),
    ])
    if (gen !== this.generation) return
    // A read that failed keeps what was shown of this conversation, with why.
    const prev = this.get()
    this.set({
      conversationId,
      context: context.status === 'fulfilled' ? context.value : prev.context,
      usage: usage.status === 'fulfilled' ? usage.value : prev.usage,
      error: context.status === 'fulfilled' ? null : errorMessage(context.reason),
    })
  }
}
