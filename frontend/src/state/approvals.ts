// Approvals as the page knows them (docs/approvals.md), of shell commands and
// of MCP tool calls alike: every approval seen since the page loaded (pending
// ones from GET /api/approvals, the /ws approval-requested/-decided frames,
// run_paused/run_resumed in a reply stream), what this page's own decision is
// doing, and the user's grants. Pure; approvalStore.ts holds it and makes the
// requests.

import type { Approval, ApprovalDecision, ApprovalStatus, Grant } from '../api'
import { approvalMessageId } from '../api/approvalDecode'

export interface ApprovalCard {
  approval: Approval
  /** The decision this page is sending now (its buttons are disabled meanwhile). */
  sending: ApprovalDecision | null
  /**
   * This page's decision lost (409): the approval had been decided elsewhere;
   * decision is the one taken (null: the approval was cancelled, or the server did not say).
   */
  conflict: { decision: ApprovalDecision | null } | null
  /** Why this page's decision could not be sent (the card can be decided again). */
  error: string | null
}

export interface ApprovalsState {
  /** In the order they were first seen. */
  cards: readonly ApprovalCard[]
  /** The user's grants; null until first loaded. */
  grants: readonly Grant[] | null
  /** Why the grants could not be loaded or revoked. */
  grantsError: string | null
}

export const initialApprovals: ApprovalsState = { cards: [], grants: null, grantsError: null }

const card = (approval: Approval): ApprovalCard => ({ approval, sending: null, conflict: null, error: null })

/** The status a decision leads to (null: cancelled). */
export function statusOf(decision: ApprovalDecision | null): ApprovalStatus {
  if (decision === null) return 'cancelled'
  return decision === 'deny' ? 'denied' : 'approved'
}

function update(state: ApprovalsState, id: string, change: (c: ApprovalCard) => ApprovalCard): ApprovalsState {
  const i = state.cards.findIndex((c) => c.approval.id === id)
  const current = state.cards[i]
  if (current === undefined) return state
  const next = change(current)
  if (next === current) return state
  const cards = state.cards.slice()
  cards[i] = next
  return { ...state, cards }
}

/**
 * Adds an approval or takes the newer copy of one. A decided approval never
 * turns pending again: an older copy (a list fetched before the decision) loses.
 */
export function receiveApproval(state: ApprovalsState, approval: Approval): ApprovalsState {
  const i = state.cards.findIndex((c) => c.approval.id === approval.id)
  if (i < 0) return { ...state, cards: [...state.cards, card(approval)] }
  return update(state, approval.id, (c) => {
    if (c.approval.status !== 'pending' && approval.status === 'pending') return c
    // (A copy that does not say the approval's message keeps the one known.)
    const messageId = approval.messageId ?? c.approval.messageId
    return { ...c, approval: messageId === undefined ? approval : { ...approval, messageId } }
  })
}

/**
 * GET /api/approvals answered: every approval still pending. A card that was
 * pending before the request (stale) and is not in the answer was decided or
 * cancelled while this page was not listening: it goes (how it ended is not known).
 */
export function pendingLoaded(state: ApprovalsState, pending: readonly Approval[], stale: ReadonlySet<string>): ApprovalsState {
  const listed = new Set(pending.map((a) => a.id))
  let next = state
  const gone = state.cards.filter((c) => c.approval.status === 'pending' && stale.has(c.approval.id) && !listed.has(c.approval.id))
  if (gone.length > 0) next = { ...next, cards: next.cards.filter((c) => !gone.includes(c)) }
  return pending.reduce(receiveApproval, next)
}

/** The ids of the cards still pending (what a reload of the pending list may drop). */
export function pendingIds(state: ApprovalsState): Set<string> {
  return new Set(state.cards.filter((c) => c.approval.status === 'pending').map((c) => c.approval.id))
}

/** A decision known only by its frame (run_resumed, or the winner of a 409): a pending card takes it. */
export function decisionKnown(state: ApprovalsState, id: string, decision: ApprovalDecision | null): ApprovalsState {
  return update(state, id, (c) =>
    c.approval.status !== 'pending' ? c : { ...c, approval: { ...c.approval, status: statusOf(decision), decision } },
  )
}

export function decisionSending(state: ApprovalsState, id: string, decision: ApprovalDecision): ApprovalsState {
  return update(state, id, (c) => ({ ...c, sending: decision, conflict: null, error: null }))
}

/** 200: this page's decision won; the answer is the approval as it is now. */
export function decisionWon(state: ApprovalsState, approval: Approval): ApprovalsState {
  return update(receiveApproval(state, approval), approval.id, (c) => ({ ...c, sending: null }))
}

/** 409: another decision had been taken (null: the approval was cancelled). */
export function decisionLost(state: ApprovalsState, id: string, decision: ApprovalDecision | null): ApprovalsState {
  const next = update(state, id, (c) => ({ ...c, sending: null, conflict: { decision } }))
  return decisionKnown(next, id, decision)
}

export function decisionFailed(state: ApprovalsState, id: string, message: string): ApprovalsState {
  return update(state, id, (c) => ({ ...c, sending: null, error: message }))
}

export function grantsLoaded(state: ApprovalsState, grants: readonly Grant[]): ApprovalsState {
  return { ...state, grants, grantsError: null }
}

export function grantRemoved(state: ApprovalsState, id: string): ApprovalsState {
  if (state.grants === null || !state.grants.some((g) => g.id === id)) return state
  return { ...state, grants: state.grants.filter((g) => g.id !== id), grantsError: null }
}

export function grantsFailed(state: ApprovalsState, message: string): ApprovalsState {
  return { ...state, grantsError: message }
}

/** The cards of a conversation, in order. */
export function cardsOf(state: ApprovalsState, conversationId: string | null): ApprovalCard[] {
  return conversationId === null ? [] : state.cards.filter((c) => c.approval.conversationId === conversationId)
}

/** The conversations with an approval waiting for the user. */
export function awaitingConversations(state: ApprovalsState): Set<string> {
  return new Set(state.cards.filter((c) => c.approval.status === 'pending').map((c) => c.approval.conversationId))
}

/**
 * Puts each card after the reply of its run. A card whose run no message
 * shows is on a branch not shown when its user message is not shown either
 * (elsewhere: only its pending ones, which the list offers to show); the
 * others (an older server's, which did not say the message) go last.
 */
export function placeCards(
  cards: readonly ApprovalCard[],
  runIds: readonly (string | undefined)[],
  messageIds: readonly (string | null)[] = [],
): { byRun: Map<string, ApprovalCard[]>; rest: ApprovalCard[]; elsewhere: ApprovalCard[] } {
  const shown = new Set(runIds.filter((id) => id !== undefined))
  const ids = new Set(messageIds.filter((id) => id !== null))
  const byRun = new Map<string, ApprovalCard[]>()
  const rest: ApprovalCard[] = []
  const elsewhere: ApprovalCard[] = []
  for (const c of cards) {
    const runId = c.approval.runId
    if (!shown.has(runId)) {
      const messageId = approvalMessageId(c.approval)
      if (messageId === null || ids.has(messageId)) rest.push(c)
      else if (c.approval.status === 'pending') elsewhere.push(c)
      continue
    }
    const list = byRun.get(runId)
    if (list === undefined) byRun.set(runId, [c])
    else list.push(c)
  }
  return { byRun, rest, elsewhere }
}

/** An approval of the open conversation waits on a branch not shown (messages: the bubbles shown). */
export function awaitingElsewhere(
  state: ApprovalsState,
  open: string | null,
  messages: readonly { runId?: string | undefined; id: string | null }[],
): boolean {
  if (open === null) return false
  const cards = cardsOf(state, open)
  if (!cards.some((c) => c.approval.status === 'pending')) return false
  return placeCards(cards, messages.map((m) => m.runId), messages.map((m) => m.id)).elsewhere.length > 0
}

/** What a decision did, in a few words. */
export function decisionLabel(decision: ApprovalDecision | null): string {
  switch (decision) {
    case 'approve':
      return 'allowed once'
    case 'approve_always':
      return 'always allowed'
    case 'deny':
      return 'denied'
    case null:
      return 'cancelled'
  }
}

/** The one-line outcome of a decided card. */
export function outcomeText(approval: Approval): string {
  if (approval.status === 'cancelled') return 'Cancelled: the run was stopped.'
  if (approval.kind === 'memory') return approval.status === 'denied' ? 'Discarded: not remembered.' : 'Saved to the memory.'
  if (approval.status === 'denied') return approval.note === '' ? 'Denied.' : `Denied: “${approval.note}”`
  if (approval.decision === 'approve_always') {
    return approval.grantable.length === 0 ? 'Allowed, always.' : `Allowed; always allowing ${approval.grantable.join(', ')} from now on.`
  }
  return 'Allowed once.'
}
