// The card of an approval (docs/approvals.md), shown in the message list
// after the reply that asked. A tool of an MCP server has its own card
// (McpApprovalCard); this file draws a shell command's: the command, where it
// runs, the model's reason, its base commands and why it always asks; then
// Run once, Always allow <base> (that base only), and Deny with an optional note. Real
// buttons, no autofocus and no key handler: the composer keeps the focus and
// its Enter never decides. A decided card shrinks to its outcome.

import { memo, useId } from 'react'
import type { Approval } from '../api'
import { outcomeText } from '../state/approvals'
import { ApprovalActions, ConflictNote, type CardProps as Props } from './ApprovalParts'
import { McpApprovalCard } from './McpApprovalCard'

export type { DecideFn } from './ApprovalParts'

export const ApprovalCard = memo(function ApprovalCard({ card, onDecide }: Props) {
  return card.approval.kind === 'mcp' ? <McpApprovalCard card={card} onDecide={onDecide} /> : <ShellApprovalCard card={card} onDecide={onDecide} />
})

function ShellApprovalCard({ card, onDecide }: Props) {
  const { approval } = card
  const titleId = useId()
  const pending = approval.status === 'pending'
  return (
    <li
      className={`approval-card status-${approval.status}${pending ? '' : ' decided'}`}
      data-testid="approval-card"
      data-approval-id={approval.id}
      data-status={approval.status}
      aria-labelledby={titleId}
    >
      {pending ? (
        <>
          <div className="approval-head">
            <strong id={titleId}>Run this command?</strong>
            <span className="approval-tool">{approval.toolName}</span>
          </div>
          <ApprovalFacts approval={approval} />
          <ApprovalActions
            card={card}
            onDecide={onDecide}
            once="Run once"
            alwaysTitle={(base) => `Run it, and from now on let Wisp run ${base} without asking`}
          />
        </>
      ) : (
        <p className="approval-outcome">
          <span id={titleId} className="visually-hidden">
            Shell command
          </span>
          <code className="approval-command-inline" title={approval.command}>
            {approval.command}
          </code>
          <span data-testid="approval-outcome">{outcomeText(approval)}</span>
        </p>
      )}
      <ConflictNote card={card} />
    </li>
  )
}

function ApprovalFacts({ approval }: { approval: Approval }) {
  const { command, cwd, reason, bases, alwaysAsk } = approval
  return (
    <>
      <pre className="approval-command" data-testid="approval-command">
        <code>{command}</code>
      </pre>
      <dl className="approval-facts">
        {cwd !== '' ? (
          <>
            <dt>Directory</dt>
            <dd>
              <code data-testid="approval-cwd">{cwd}</code>
            </dd>
          </>
        ) : null}
        {reason !== '' ? (
          <>
            <dt>Why</dt>
            <dd data-testid="approval-reason">{reason}</dd>
          </>
        ) : null}
        {bases.length > 0 ? (
          <>
            <dt>Commands</dt>
            <dd className="approval-bases" data-testid="approval-bases">
              {bases.map((b) => (
                <code key={b}>{b}</code>
              ))}
            </dd>
          </>
        ) : null}
      </dl>
      {alwaysAsk.length > 0 ? (
        <div className="approval-always-ask" data-testid="approval-always-ask">
          <p>No grant can cover this command, so Wisp asks every time:</p>
          <ul>
            {alwaysAsk.map((line, i) => (
              <li key={i}>{line}</li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  )
}
