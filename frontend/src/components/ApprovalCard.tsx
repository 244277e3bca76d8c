// The card of an approval (docs/approvals.md), shown in the message list
// after the reply that asked. A tool of an MCP server has its own card
// (McpApprovalCard), and so has a note the agent wants to remember
// (MemoryApprovalCard); this file draws a shell command's: the command, where it
// runs, the model's reason, its base commands and why it always asks; then
// Run once, Always allow <base> (that base only), and Deny with an optional note. Real
// buttons, no autofocus and no key handler: the composer keeps the focus and
// its Enter never decides. A decided card shrinks to its outcome.
//
// The card shows what will run: hidden and direction-changing characters in
// what the model wrote are drawn as escapes (`\u202e`), counted, and said so
// above the command; the command, its directory and its bases are drawn left
// to right in the order bash reads them, whatever script their letters are in.

import './approval.css'
import { memo, useMemo } from 'react'
import type { Approval } from '../api'
import { countHidden } from '../hiddenChars'
import { ApprovalActions, ApprovalFrame, type CardProps as Props } from './ApprovalParts'
import { HiddenCharsNote, HiddenText, type HiddenPart } from './HiddenText'
import { FileEditApprovalCard, FileReadApprovalCard, WebApprovalCard } from './HandsApprovalCards'
import { McpApprovalCard } from './McpApprovalCard'
import { MemoryApprovalCard } from './MemoryApprovalCard'
import { TaskApprovalCard } from './TaskApprovalCard'

export type { DecideFn } from './ApprovalParts'

export const ApprovalCard = memo(function ApprovalCard({ card, onDecide }: Props) {
  switch (card.approval.kind) {
    case 'mcp':
      return <McpApprovalCard card={card} onDecide={onDecide} />
    case 'memory':
      return <MemoryApprovalCard card={card} onDecide={onDecide} />
    case 'shell':
      return <ShellApprovalCard card={card} onDecide={onDecide} />
    case 'web':
      return <WebApprovalCard card={card} onDecide={onDecide} />
    case 'file_read':
      return <FileReadApprovalCard card={card} onDecide={onDecide} />
    case 'file_edit':
      return <FileEditApprovalCard card={card} onDecide={onDecide} />
    case 'task':
      return <TaskApprovalCard card={card} onDecide={onDecide} />
  }
})

/** What of a shell approval the card shows that could hide characters, and how many each has. */
function hiddenParts({ command, cwd, reason }: Approval): HiddenPart[] {
  return [
    { what: 'This command', count: countHidden(command) },
    { what: 'its directory', count: countHidden(cwd) },
    { what: 'its reason', count: countHidden(reason) },
  ]
}

function ShellApprovalCard({ card, onDecide }: Props) {
  const { approval } = card
  const parts = useMemo(() => hiddenParts(approval), [approval])
  return (
    <ApprovalFrame
      card={card}
      kind="shell"
      question="Run this command?"
      what="Shell command"
      subject={approval.command}
      facts={<ApprovalFacts approval={approval} parts={parts} />}
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <ApprovalActions
          card={card}
          onDecide={onDecide}
          once="Run once"
          alwaysTitle={(base) => `Run it, and from now on let Wisp run ${base} without asking`}
        />
      }
    />
  )
}

function ApprovalFacts({ approval, parts }: { approval: Approval; parts: HiddenPart[] }) {
  const { command, cwd, reason, bases, alwaysAsk } = approval
  return (
    <>
      <HiddenCharsNote parts={parts} differs="what runs" />
      <pre className="approval-command as-run" data-testid="approval-command">
        <code>
          <HiddenText text={command} />
        </code>
      </pre>
      <dl className="approval-facts">
        {cwd !== '' ? (
          <>
            <dt>Directory</dt>
            <dd>
              <code className="as-run" data-testid="approval-cwd">
                <HiddenText text={cwd} newline="escape" />
              </code>
            </dd>
          </>
        ) : null}
        {reason !== '' ? (
          <>
            <dt>Why</dt>
            <dd data-testid="approval-reason">
              <HiddenText text={reason} />
            </dd>
          </>
        ) : null}
        {bases.length > 0 ? (
          <>
            <dt>Commands</dt>
            <dd className="approval-bases" data-testid="approval-bases">
              {bases.map((b) => (
                <code key={b} className="as-run">
                  <HiddenText text={b} newline="escape" />
                </code>
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
              <li key={i}>
                <HiddenText text={line} newline="escape" />
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  )
}
