// Wire types of approvals and grants (docs/approvals.md): of shell commands,
// and of calls of MCP servers' tools, which ask the user the same way. They are
// generated from the Go types (wire.gen.ts, app/wire/approvals.go): an Approval is
// the same shape on every route and frame; a shell one has no server, tool or
// arguments ('', '', null), an mcp one no command, cwd or reason, and its bases are
// ["<server>.<tool>"]; a memory one (the agent's REMEMBER) has only its text, the
// note it proposes for the memory. Decoders live in approvalDecode.ts.

import type { Approval, ApprovalChanged, ApprovalDecision } from './wire.gen'

export type { Approval, ApprovalDecision, ApprovalKind, ApprovalStatus, Grant } from './wire.gen'

/**
 * The answer to POST /api/approvals/{id}: this decision won (the approval as
 * it is now), or another one had already been taken (409: the winning
 * decision, null when the approval was cancelled or the server did not say).
 */
export type DecideResult =
  | { ok: true; approval: Approval }
  | { ok: false; decision: ApprovalDecision | null; error: string }

/** /ws: a run paused for the user's approval. */
export type ApprovalRequestedMessage = ApprovalChanged & { type: 'approval-requested' }

/** /ws: an approval was decided (here or in another client) or cancelled. */
export type ApprovalDecidedMessage = ApprovalChanged & { type: 'approval-decided' }
