// Which message the chat should bring into view once its conversation shows:
// the search palette asks for one (a result chosen), the message list shows it
// (scrolled to, highlighted briefly) and says it is done. A Store (store.ts)
// of the page's WispPage.

import { Store } from './store'

export interface FocusRequest {
  conversationId: string
  messageId: string
  /** Tells two requests for the same message apart (chosen twice). */
  seq: number
}

export class MessageFocus extends Store<FocusRequest | null> {
  private seq = 0

  constructor() {
    super(null)
  }

  /** Asks for messageId of conversationId to be shown. */
  show(conversationId: string, messageId: string): void {
    this.set({ conversationId, messageId, seq: ++this.seq })
  }

  /** The request was served (or cannot be): forget it. */
  done(request: FocusRequest): void {
    if (this.get()?.seq === request.seq) this.set(null)
  }
}
