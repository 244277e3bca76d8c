// The card of an approval (docs/approvals.md), shown in the message list
// after the reply that asked. A tool of an MCP server has its own card
// (McpApprovalCard); this file draws a shell command's: the command, where it
// runs, the model's reason, its base commands and why it always asks; then
// Run once, Always allow <base> (that base only), and Deny with an optional note. Real
// buttons, no autofocus and no key handler: the composer keeps the focus and
// its Enter never decides. A decided card shrinks to its outcome.

import { memo } from 'react'
import type { Approval } from '../api'
import { ApprovalFrame, type CardProps as Props } from './ApprovalParts'
import { McpApprovalCard } from './McpApprovalCard'

export type { DecideFn } from './ApprovalParts'

export const ApprovalCard = memo(function ApprovalCard({ card, onDecide }: Props) {
  return card.approval.kind === 'mcp' ? <McpApprovalCard card={card} onDecide={onDecide} /> : <ShellApprovalCard card={card} onDecide={onDecide} />
})

function ShellApprovalCard({ card, onDecide }: Props) {
  const { approval } = card
  return (
    <ApprovalFrame
      card={card}
      onDecide={onDecide}
      kind="shell"
      question="Run this command?"
      what="Shell command"
      subject={approval.command}
      facts={<ApprovalFacts approval={approval} />}
      once="Run once"
      alwaysTitle={(base) => `Run it, and from now on let Wisp run ${base} without asking`}
    />
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
