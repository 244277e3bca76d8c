// Wire types of shell-command approvals and grants (docs/approvals.md).
// Decoders live in approvalDecode.ts; nothing here has behaviour.

/** What the user answers: run it once, run it and grant its bases, or refuse. */
export type ApprovalDecision = 'approve' | 'approve_always' | 'deny'

/** cancelled: the run was stopped while it waited. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'cancelled'

/** A command waiting for (or given) the user's yes; the same shape on every route and frame. */
export interface Approval {
  id: string
  runId: string
  conversationId: string
  callId: string
  toolName: string
  command: string
  /** The working directory ('' when the server did not say). */
  cwd: string
  /** One line from the model saying why. */
  reason: string
  /** The base command of every simple command in it, in order, without repeats. */
  bases: string[]
  /** The bases a grant could cover ("Always allow `rm`"); empty when alwaysAsk is not. */
  grantable: string[]
  /** Why no grant can ever cover this command, one readable line each. */
  alwaysAsk: string[]
  status: ApprovalStatus
  /** null while pending (and for a cancelled one). */
  decision: ApprovalDecision | null
  note: string
  /** ISO 8601 */
  createdAt: string
  /** ISO 8601; null while pending. */
  decidedAt: string | null
}

/** A base command the user always allows. */
export interface Grant {
  id: string
  base: string
  /** ISO 8601 */
  createdAt: string
}

/**
 * The answer to POST /api/approvals/{id}: this decision won (the approval as
 * it is now), or another one had already been taken (409: the winning
 * decision, null when the approval was cancelled or the server did not say).
 */
export type DecideResult =
  | { ok: true; approval: Approval }
  | { ok: false; decision: ApprovalDecision | null; error: string }

/** /ws: a run paused for the user's approval. */
export interface ApprovalRequestedMessage {
  type: 'approval-requested'
  approval: Approval
}

/** /ws: an approval was decided (here or in another client) or cancelled. */
export interface ApprovalDecidedMessage {
  type: 'approval-decided'
  approval: Approval
}
