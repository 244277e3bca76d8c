// Reading the ReplyStore from components: WispProvider provides the page's
// store (one instance for the page's life, so the context never changes), and
// a selector reads one reply through useSyncExternalStore. A component
// re-renders only when the entry it selects changes.

import { createContext, useCallback, useContext, useSyncExternalStore } from 'react'
import type { LiveReply } from './liveReply'
import type { ReplyStore } from './replyStore'

export const ReplyStoreContext = createContext<ReplyStore | null>(null)

const noSubscription = () => () => undefined

/** The live state of the reply with this bubble key (undefined for null: a bubble that is not streaming). */
export function useLiveReply(key: string | null): LiveReply | undefined {
  const store = useContext(ReplyStoreContext)
  const getSnapshot = useCallback(() => (store === null || key === null ? undefined : store.get(key)), [store, key])
  // A bubble that is not streaming does not even subscribe.
  return useSyncExternalStore(store === null || key === null ? noSubscription : store.subscribe, getSnapshot)
}
