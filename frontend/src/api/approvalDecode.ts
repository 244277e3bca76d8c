// Runtime checks for approvals and grants (docs/approvals.md). Like the other
// decoders, a value that lacks a required field, has one of the wrong type,
// or contradicts itself (an approved approval whose decision is "deny", an
// mcp one that names no server or tool) is rejected (null) rather than
// passed on with a lying type. A value without a kind is a shell one (as
// every approval was before MCP servers, e.g. a run paused before an upgrade).

import type {
  Approval,
  ApprovalDecidedMessage,
  ApprovalDecision,
  ApprovalRequestedMessage,
  Grant,
} from './approvalTypes'
import { BAD, decodeAll, isObject, isString, isStringArray, oneOf, orDefault } from './guards'
import type { JsonObject } from './json'
import { annotationsField } from './mcpDecode'

export const isApprovalDecision = oneOf(['approve', 'approve_always', 'deny'])
const isApprovalStatus = oneOf(['pending', 'approved', 'denied', 'cancelled'])
const isApprovalKind = oneOf(['shell', 'mcp'])

const isId = (v: unknown): v is string => isString(v) && v !== ''

/** The decision a status allows: pending has none, approved one of the two yeses, denied "deny" (cancelled: any). */
function consistent(status: Approval['status'], decision: ApprovalDecision | null): boolean {
  switch (status) {
    case 'pending':
      return decision === null
    case 'approved':
      return decision === 'approve' || decision === 'approve_always'
    case 'denied':
      return decision === 'deny'
    case 'cancelled':
      return true
  }
}

const isDecisionOrNull = (v: unknown): v is ApprovalDecision | null => v === null || isApprovalDecision(v)
const isStringOrNull = (v: unknown): v is string | null => v === null || isString(v)

export function decodeApproval(v: unknown): Approval | null {
  if (!isObject(v)) return null
  const { id, runId, conversationId, callId, toolName, command, reason, bases, status, createdAt } = v
  if (!isId(id) || !isId(runId) || !isId(conversationId) || !isId(callId) || !isId(toolName)) return null
  if (!isString(command) || !isString(reason) || !isStringArray(bases) || !isApprovalStatus(status)) return null
  if (!isString(createdAt)) return null
  const cwd = orDefault(v.cwd, isString, '')
  const grantable = orDefault(v.grantable, isStringArray, [])
  const alwaysAsk = orDefault(v.alwaysAsk, isStringArray, [])
  const decision = orDefault(v.decision, isDecisionOrNull, null)
  const note = orDefault(v.note, isString, '')
  const decidedAt = orDefault(v.decidedAt, isStringOrNull, null)
  if (cwd === BAD || grantable === BAD || alwaysAsk === BAD || note === BAD) return null
  if (decision === BAD || decidedAt === BAD || !consistent(status, decision)) return null
  const tool = decodeToolFields(v)
  if (tool === null) return null
  return {
    id,
    runId,
    conversationId,
    callId,
    toolName,
    command,
    cwd,
    reason,
    bases,
    grantable,
    alwaysAsk,
    status,
    decision,
    note,
    createdAt,
    decidedAt,
    ...tool,
  }
}

type ToolFields = Pick<Approval, 'kind' | 'server' | 'tool' | 'arguments' | 'annotations' | 'toolTitle' | 'toolDescription'>

/** The fields of what asks: shell (the default) or mcp, which must name its server and tool. */
function decodeToolFields(v: JsonObject): ToolFields | null {
  const kind = orDefault(v.kind, isApprovalKind, 'shell')
  const server = orDefault(v.server, isString, '')
  const tool = orDefault(v.tool, isString, '')
  const toolTitle = orDefault(v.toolTitle, isString, '')
  const toolDescription = orDefault(v.toolDescription, isString, '')
  const annotations = annotationsField(v.annotations)
  if (kind === BAD || server === BAD || tool === BAD || toolTitle === BAD || toolDescription === BAD || annotations === BAD) return null
  if (kind === 'mcp' && (server === '' || tool === '')) return null
  const args = v.arguments === undefined ? null : v.arguments
  return { kind, server, tool, arguments: args, annotations, toolTitle, toolDescription }
}

/** GET /api/approvals: {approvals:[...]}. */
export function decodeApprovalList(v: unknown): Approval[] | null {
  return isObject(v) ? decodeAll(v.approvals, decodeApproval) : null
}

/** POST /api/approvals/{id} answered 200: {approval}. */
export function decodeApprovalBody(v: unknown): Approval | null {
  return isObject(v) ? decodeApproval(v.approval) : null
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

export function decodeGrant(v: unknown): Grant | null {
  if (!isObject(v)) return null
  const { id, base, createdAt } = v
  if (!isId(id) || !isId(base) || !isString(createdAt)) return null
  const kind = orDefault(v.kind, isApprovalKind, 'shell')
  if (kind === BAD) return null
  return { id, kind, base, createdAt }
}

/** GET /api/grants: {grants:[...]}. */
export function decodeGrantList(v: unknown): Grant[] | null {
  return isObject(v) ? decodeAll(v.grants, decodeGrant) : null
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
