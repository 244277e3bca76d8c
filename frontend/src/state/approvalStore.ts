// The page's approvals and grants, a Store (store.ts; one instance per page,
// created by WispProvider, read by components through useApprovals.ts):
// fed by GET /api/approvals (at start and after every reconnect of /ws), the
// approval-requested/-decided frames and the run_paused/run_resumed frames
// of reply streams; it sends the user's decisions and manages the grants.

import { ApiError, type ApiClient, type Approval, type ApprovalDecision, type ChatFrame } from '../api'
import {
  decisionFailed,
  decisionKnown,
  decisionLost,
  decisionSending,
  decisionWon,
  grantRemoved,
  grantsFailed,
  grantsLoaded,
  initialApprovals,
  pendingIds,
  pendingLoaded,
  receiveApproval,
  type ApprovalsState,
} from './approvals'
import { Store } from './store'

export type ApprovalsApi = Pick<ApiClient, 'listApprovals' | 'decideApproval' | 'listGrants' | 'deleteGrant'>

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export class ApprovalStore extends Store<ApprovalsState> {
  private api: ApprovalsApi | null = null
  private pendingGeneration = 0
  private grantsGeneration = 0

  constructor() {
    super(initialApprovals)
  }

  setApi(api: ApprovalsApi | null): void {
    this.api = api
  }

  /** An approval-requested or approval-decided frame. */
  readonly receive = (approval: Approval): void => {
    const wasGranting = approval.decision === 'approve_always' && this.find(approval.id)?.approval.status === 'pending'
    this.set((s) => receiveApproval(s, approval))
    // Another client's "Always allow" added grants: keep a list on screen true.
    if (wasGranting && this.get().grants !== null) void this.loadGrants()
  }

  /** A frame of a reply stream: run_paused shows its approval, run_resumed decides it. */
  readonly onChatFrame = (frame: ChatFrame): void => {
    if (frame.type === 'run_paused') this.set((s) => receiveApproval(s, frame.approval))
    else if (frame.type === 'run_resumed') this.set((s) => decisionKnown(s, frame.approvalId, frame.decision))
  }

  /** Reloads the pending approvals; a pending card missing from the answer was decided meanwhile. */
  async loadPending(): Promise<void> {
    const api = this.api
    if (api === null) return
    const gen = ++this.pendingGeneration
    const stale = pendingIds(this.get())
    try {
      const pending = await api.listApprovals()
      if (gen === this.pendingGeneration && api === this.api) this.set((s) => pendingLoaded(s, pending, stale))
    } catch (err) {
      console.warn('wisp: cannot load the pending approvals:', errorText(err))
    }
  }

  /**
   * Sends the user's decision (once at a time per approval). A 409 shows the
   * decision that won; approve_always (granting bases, or all it can) reloads
   * the grants it saved. text, with approve of a memory approval, is the
   * text the user edited (saved instead of the one proposed).
   */
  async decide(id: string, decision: ApprovalDecision, note = '', bases: readonly string[] = [], text?: string): Promise<void> {
    const api = this.api
    const current = this.find(id)
    if (current === undefined || current.sending !== null || current.approval.status !== 'pending') return
    this.set((s) => decisionSending(s, id, decision))
    try {
      if (api === null) throw new ApiError(0, 'not connected to the Wisp server')
      const result = await api.decideApproval(id, decision, note.trim(), bases, text)
      if (result.ok) {
        this.set((s) => decisionWon(s, result.approval))
        if (decision === 'approve_always') void this.loadGrants()
      } else {
        this.set((s) => decisionLost(s, id, result.decision))
      }
    } catch (err) {
      this.set((s) => decisionFailed(s, id, errorText(err)))
    }
  }

  async loadGrants(): Promise<void> {
    const api = this.api
    if (api === null) return
    const gen = ++this.grantsGeneration
    try {
      const grants = await api.listGrants()
      if (gen === this.grantsGeneration) this.set((s) => grantsLoaded(s, grants))
    } catch (err) {
      if (gen === this.grantsGeneration) this.set((s) => grantsFailed(s, `Cannot load the grants: ${errorText(err)}`))
    }
  }

  /** Revokes a grant; one already gone counts as revoked. */
  async revokeGrant(id: string): Promise<void> {
    const api = this.api
    try {
      if (api === null) throw new ApiError(0, 'not connected to the Wisp server')
      await api.deleteGrant(id)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) {
        this.set((s) => grantsFailed(s, `Cannot revoke the grant: ${errorText(err)}`))
        return
      }
    }
    this.grantsGeneration++ // a list fetched before the delete would bring it back
    this.set((s) => grantRemoved(s, id))
  }

  private find(id: string) {
    return this.get().cards.find((c) => c.approval.id === id)
  }
}
