// Reading the page's ApprovalStore from components (WispProvider feeds it).

import type { ApprovalsState } from './approvals'
import type { ApprovalStore } from './approvalStore'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The page's store. */
export function useApprovalStore(): ApprovalStore {
  return useWisp().approvals
}

/** The approvals and grants; re-renders when they change. */
export function useApprovals(): ApprovalsState {
  return useStore(useWisp().approvals)
}
