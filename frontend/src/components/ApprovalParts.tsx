// What every approval card has, whatever asks (ApprovalCard for a shell
// command, McpApprovalCard for a tool of an MCP server, MemoryApprovalCard for
// a note the agent wants to remember): Deny with its
// optional note, the state of the answer being sent, and the note that
// another answer won. What the model or a server wrote is drawn through
// HiddenText: hidden and direction-changing characters show as escapes.

import { useId, useState, type ReactNode } from 'react'
import type { ApprovalDecision, ApprovalKind } from '../api'
import { escapeHidden } from '../hiddenChars'
import { decisionLabel, outcomeText, type ApprovalCard as Card } from '../state/approvals'
import { HiddenText } from './HiddenText'

/** bases: with approve_always, the base commands to grant; text: with approve of a memory approval, the text edited. */
export type DecideFn = (id: string, decision: ApprovalDecision, note: string, bases?: readonly string[], text?: string) => void

export interface CardProps {
  card: Card
  onDecide: DecideFn
}

/** The note for Wisp and Deny; the note is sent only with a denial. */
export function DenyWithNote({ id, busy, onDecide }: { id: string; busy: boolean; onDecide: DecideFn }) {
  const [note, setNote] = useState('')
  const noteId = useId()
  return (
    <span className="approval-deny">
      <label htmlFor={noteId} className="visually-hidden">
        Note for Wisp when you deny (optional)
      </label>
      <input
        id={noteId}
        type="text"
        data-testid="deny-note"
        placeholder="Note for Wisp (optional)"
        maxLength={1000}
        autoComplete="off"
        value={note}
        disabled={busy}
        onChange={(e) => setNote(e.target.value)}
      />
      <button type="button" className="danger" data-testid="deny" disabled={busy} onClick={() => onDecide(id, 'deny', note)}>
        Deny
      </button>
    </span>
  )
}

/** "Sending your answer…", or why it was not sent. */
export function AnswerStatus({ busy, error }: { busy: boolean; error: string | null }) {
  return (
    <>
      {busy ? (
        <p className="approval-sending muted" role="status">
          Sending your answer…
        </p>
      ) : null}
      {error !== null ? (
        <p className="approval-error" role="alert" data-testid="approval-error">
          Your answer was not sent: {error}
        </p>
      ) : null}
    </>
  )
}

/** Another answer was taken before this page's (or the approval was cancelled). */
export function ConflictNote({ card }: { card: Card }) {
  if (card.conflict === null) return null
  return (
    <p className="approval-conflict" role="status" data-testid="approval-conflict" data-decision={card.conflict.decision ?? 'none'}>
      {card.conflict.decision === null
        ? 'It was cancelled before your answer arrived.'
        : `Someone else answered first: ${decisionLabel(card.conflict.decision)}.`}
    </p>
  )
}

interface ActionsProps extends CardProps {
  /** The label of the one-time yes: "Run once", "Allow once". */
  once: string
  /** What "always" means for a base, in the button's title. */
  alwaysTitle(base: string): string
  /** The "Always allow" button's words for a base (default: Always allow <base>). */
  alwaysLabel?(base: string): ReactNode
}

/** Yes once, yes for good (one button per base the approval can grant), or no with a note. */
export function ApprovalActions({ card, onDecide, once, alwaysTitle, alwaysLabel }: ActionsProps) {
  const { approval, sending, error } = card
  const busy = sending !== null
  const grantable = approval.alwaysAsk.length === 0 ? approval.grantable : []
  return (
    <>
      <div className="approval-actions" role="group" aria-label="Your answer">
        <button type="button" className="approval-approve" data-testid="approve-once" disabled={busy} onClick={() => onDecide(approval.id, 'approve', '')}>
          {once}
        </button>
        {grantable.map((base) => (
          <button
            key={base}
            type="button"
            className="approval-always"
            data-testid="approve-always"
            data-base={base}
            disabled={busy}
            title={alwaysTitle(escapeHidden(base))}
            onClick={() => onDecide(approval.id, 'approve_always', '', [base])}
          >
            {alwaysLabel !== undefined ? (
              alwaysLabel(base)
            ) : (
              <>
                Always allow{' '}
                <code>
                  <HiddenText text={base} newline="escape" />
                </code>
              </>
            )}
          </button>
        ))}
        <DenyWithNote id={approval.id} busy={busy} onDecide={onDecide} />
      </div>
      <AnswerStatus busy={busy} error={error} />
    </>
  )
}

interface FrameProps {
  card: Card
  kind: ApprovalKind
  /** The question while pending. */
  question: ReactNode
  /** What is asked about, for a screen reader and as the decided card's subject. */
  what: string
  subject: string
  /** The facts of the call, between the question and the answers. */
  facts: ReactNode
  /** How many hidden or direction-changing characters the facts show escaped. */
  hiddenChars: number
  /** The answers while pending (ApprovalActions, or the card's own). */
  actions: ReactNode
}

/** A card: the question, the facts and the answers while pending; the outcome once decided. */
export function ApprovalFrame({ card, kind, question, what, subject, facts, hiddenChars, actions }: FrameProps) {
  const { approval } = card
  const titleId = useId()
  const pending = approval.status === 'pending'
  return (
    <li
      className={`approval-card approval-${kind} status-${approval.status}${pending ? '' : ' decided'}`}
      data-testid="approval-card"
      data-kind={kind}
      data-approval-id={approval.id}
      data-status={approval.status}
      data-hidden-chars={hiddenChars}
      aria-labelledby={titleId}
    >
      {pending ? (
        <>
          <div className="approval-head">
            <strong id={titleId}>{question}</strong>
            <span className="approval-tool">
              <HiddenText text={approval.toolName} newline="escape" />
            </span>
          </div>
          {facts}
          {actions}
        </>
      ) : (
        <p className="approval-outcome">
          <span id={titleId} className="visually-hidden">
            {what}
          </span>
          <code className="approval-command-inline as-run" title={escapeHidden(subject)}>
            <HiddenText text={subject} newline="escape" />
          </code>
          <span data-testid="approval-outcome">
            <HiddenText text={outcomeText(approval)} newline="escape" />
          </span>
        </p>
      )}
      <ConflictNote card={card} />
    </li>
  )
}

