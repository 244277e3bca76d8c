// Wire types of approvals and grants (docs/approvals.md): of shell commands,
// and of calls of MCP servers' tools, which ask the user the same way.
// Decoders live in approvalDecode.ts; nothing here has behaviour.

import type { McpToolAnnotations } from './mcpTypes'

/** What asks: a shell command (RUN_SHELL) or a tool of an MCP server. */
export type ApprovalKind = 'shell' | 'mcp'

/** What the user answers: run it once, run it and grant its bases, or refuse. */
export type ApprovalDecision = 'approve' | 'approve_always' | 'deny'

/** cancelled: the run was stopped while it waited. */
export type ApprovalStatus = 'pending' | 'approved' | 'denied' | 'cancelled'

/**
 * A command or tool call waiting for (or given) the user's yes; the same
 * shape on every route and frame. An mcp approval has no command, cwd or
 * reason (''), and bases and grantable are ["<server>.<tool>"]; a shell one
 * has no server, tool or arguments ('', '', null).
 */
export interface Approval {
  id: string
  kind: ApprovalKind
  runId: string
  conversationId: string
  callId: string
  /** The agent's action: RUN_SHELL, or server__tool. */
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
  /** mcp: the server's name ('' for shell). */
  server: string
  /** mcp: the server's name for the tool ('' for shell). */
  tool: string
  /** mcp: the JSON the model passed (null for shell). */
  arguments: unknown
  annotations: McpToolAnnotations | null
  /** mcp: the tool's title ('' when it has none, and for shell). */
  toolTitle: string
  toolDescription: string
}

/** A base command (shell) or a tool, "<server>.<tool>" (mcp), the user always allows. */
export interface Grant {
  id: string
  kind: ApprovalKind
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
