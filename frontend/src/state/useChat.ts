// The chat from components: the page's ChatController (chatController.ts)
// does the work outside React; these hooks hand it out and select from its
// state (the chat slice of the app store).

import type { ChatController } from './chatController'
import type { ChatState } from './chat'
import { useAppState, useWisp } from './wispContext'

export type { ChatActions } from './chatController'

/** The page's chat controller (stable: reading it re-renders nothing). */
export function useChat(): ChatController {
  return useWisp().chat
}

/** A slice of the open chat; re-renders only when it changes. */
export function useChatState<T>(selector: (chat: ChatState) => T, equal?: (a: T, b: T) => boolean): T {
  return useAppState((s) => selector(s.chat), equal)
}
