// Which message the chat should bring into view once its conversation shows:
// the search palette asks for one (a result chosen), the message list shows it
// (scrolled to, highlighted briefly) and says it is done. A small store read
// through useSyncExternalStore, provided once for the page (MessageFocusProvider).

import { createContext, createElement, useContext, useState, useSyncExternalStore, type ReactNode } from 'react'

export interface FocusRequest {
  conversationId: string
  messageId: string
  /** Tells two requests for the same message apart (chosen twice). */
  seq: number
}

export class MessageFocus {
  private request: FocusRequest | null = null
  private seq = 0
  private readonly listeners = new Set<() => void>()

  /** Asks for messageId of conversationId to be shown. */
  show(conversationId: string, messageId: string): void {
    this.request = { conversationId, messageId, seq: ++this.seq }
    this.emit()
  }

  /** The request was served (or cannot be): forget it. */
  done(request: FocusRequest): void {
    if (this.request?.seq !== request.seq) return
    this.request = null
    this.emit()
  }

  current = (): FocusRequest | null => this.request

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  private emit(): void {
    for (const fn of [...this.listeners]) fn()
  }
}

const MessageFocusContext = createContext<MessageFocus | null>(null)

export function MessageFocusProvider({ children }: { children: ReactNode }) {
  const [store] = useState(() => new MessageFocus())
  return createElement(MessageFocusContext.Provider, { value: store }, children)
}

/** The page's store; null outside MessageFocusProvider (nothing then asks or shows). */
export function useMessageFocusStore(): MessageFocus | null {
  return useContext(MessageFocusContext)
}

const none = (): null => null
const never = () => () => undefined

/** The request for a message of conversationId, if there is one. */
export function useFocusRequest(conversationId: string | null): FocusRequest | null {
  const store = useMessageFocusStore()
  const request = useSyncExternalStore(store?.subscribe ?? never, store?.current ?? none)
  return request !== null && request.conversationId === conversationId ? request : null
}
