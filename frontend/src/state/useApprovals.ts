// Reading and feeding the page's ApprovalStore from React: WispProvider
// provides the one store (its context never changes) and feeds it with
// useApprovalFeed; components read its state through useApprovals.

import { createContext, useContext, useEffect, useSyncExternalStore } from 'react'
import type { ApiClient, Approval, Unsubscribe } from '../api'
import { initialApprovals, type ApprovalsState } from './approvals'
import type { ApprovalStore } from './approvalStore'

export const ApprovalStoreContext = createContext<ApprovalStore | null>(null)

const noSubscription = () => () => undefined
const empty = () => initialApprovals

/** The page's store (null outside WispProvider). */
export function useApprovalStore(): ApprovalStore | null {
  return useContext(ApprovalStoreContext)
}

/** The approvals and grants; re-renders when they change. */
export function useApprovals(): ApprovalsState {
  const store = useContext(ApprovalStoreContext)
  return useSyncExternalStore(store?.subscribe ?? noSubscription, store?.getSnapshot ?? empty)
}

/**
 * Gives the store the API client, loads the pending approvals once the API
 * is usable and again after every (re)connect of /ws (frames sent while it
 * was down are not replayed), and takes the /ws approval frames.
 */
export function useApprovalFeed(
  store: ApprovalStore,
  api: ApiClient | null,
  apiReady: boolean,
  connected: boolean,
  onApproval: (fn: (approval: Approval) => void) => Unsubscribe,
): void {
  useEffect(() => store.setApi(api), [store, api])
  useEffect(() => onApproval(store.receive), [store, onApproval])
  useEffect(() => {
    if (api !== null && apiReady && connected) void store.loadPending()
  }, [store, api, apiReady, connected])
}
