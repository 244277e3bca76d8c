// Decoders of approvals and grants (docs/approvals.md): the generated checks of
// wire.gen.ts, null for a value that is not its shape, and the one thing the
// shape cannot say: an approval's status and decision agree (an approved one whose
// decision is "deny" is refused).

import type {
  Approval,
  ApprovalDecidedMessage,
  ApprovalDecision,
  ApprovalRequestedMessage,
  Grant,
} from './approvalTypes'
import { isObject, isString, oneOf } from './guards'
import type { JsonObject } from './json'
import * as wire from './wire.gen'

export const isApprovalDecision = oneOf(wire.ApprovalDecisionValues)
const isDecisionOrNull = (v: unknown): v is ApprovalDecision | null => v === null || isApprovalDecision(v)

/** The decision a status allows: pending has none, approved one of the two yeses, denied "deny" (cancelled: any). */
function consistent(a: Approval): boolean {
  switch (a.status) {
    case 'pending':
      return a.decision === null
    case 'approved':
      return a.decision === 'approve' || a.decision === 'approve_always'
    case 'denied':
      return a.decision === 'deny'
    case 'cancelled':
      return true
  }
}

const checked = (a: Approval | null): Approval | null => (a !== null && consistent(a) ? a : null)

/**
 * The user message of the approval's run (the branch it is on), or null when
 * the server did not say (before conversations were trees).
 */
export function approvalMessageId(a: Approval): string | null {
  return a.messageId === undefined || a.messageId === '' ? null : a.messageId
}

export function decodeApproval(v: unknown): Approval | null {
  return checked(wire.decodeOrNull(wire.decodeApproval, v))
}

/** GET /api/approvals: {approvals:[...]}. */
export function decodeApprovalList(v: unknown): Approval[] | null {
  const list = wire.decodeOrNull(wire.decodeApprovalList, v)?.approvals ?? null
  return list !== null && list.every(consistent) ? list : null
}

/** POST /api/approvals/{id} answered 200: {approval}. */
export function decodeApprovalBody(v: unknown): Approval | null {
  return checked(wire.decodeOrNull(wire.decodeApprovalBody, v)?.approval ?? null)
}

/**
 * POST /api/approvals/{id} answered 409: {error, decision}. decision is the
 * one taken, absent or null when the approval was cancelled; any other value
 * makes the body malformed.
 */
export function decodeDecisionConflict(v: unknown): { decision: ApprovalDecision | null; error: string } | null {
  if (!isObject(v)) return null
  const decision = v.decision === undefined || v.decision === '' ? null : v.decision
  if (!isDecisionOrNull(decision)) return null
  if (v.error !== undefined && !isString(v.error)) return null
  return { decision, error: isString(v.error) && v.error !== '' ? v.error : 'the approval was already decided' }
}

/** A grant without a kind is a shell one: every grant was, before MCP servers. */
const withKind = (v: unknown): unknown => (isObject(v) && v.kind === undefined ? { ...v, kind: 'shell' } : v)

export function decodeGrant(v: unknown): Grant | null {
  return wire.decodeOrNull(wire.decodeGrant, withKind(v))
}

/** GET /api/grants: {grants:[...]}. */
export function decodeGrantList(v: unknown): Grant[] | null {
  if (!isObject(v) || !Array.isArray(v.grants)) return null
  return wire.decodeOrNull(wire.decodeGrantList, { grants: v.grants.map(withKind) })?.grants ?? null
}

/** /ws approval-requested. */
export function decodeApprovalRequested(v: JsonObject): ApprovalRequestedMessage | null {
  const approval = decodeApproval(v.approval)
  return approval === null ? null : { type: 'approval-requested', approval }
}

/** /ws approval-decided. */
export function decodeApprovalDecided(v: JsonObject): ApprovalDecidedMessage | null {
  const approval = decodeApproval(v.approval)
  return approval === null ? null : { type: 'approval-decided', approval }
}
