// The card of the agent's SCHEDULE_TASK (docs/tasks.md): a task it would
// schedule, which then acts on its own at its times. The prompt the task will
// run and its schedule in words are shown as text (hidden and
// direction-changing characters as escapes, like every card), then Allow and
// Deny with an optional note. Never an "always" answer: a task is asked every
// time. Like the other cards: real buttons, no autofocus, and a decided card
// shrinks to its outcome.

import './approval.css'
import { useMemo } from 'react'
import { countHidden } from '../hiddenChars'
import { AnswerStatus, ApprovalFrame, DenyWithNote, type CardProps } from './ApprovalParts'
import { HiddenCharsNote, HiddenText, type HiddenPart } from './HiddenText'

export function TaskApprovalCard({ card, onDecide }: CardProps) {
  const { approval, sending, error } = card
  const busy = sending !== null
  const parts = useMemo<HiddenPart[]>(
    () => [
      { what: 'This prompt', count: countHidden(approval.text) },
      { what: 'its schedule', count: countHidden(approval.schedule) },
    ],
    [approval.text, approval.schedule],
  )
  return (
    <ApprovalFrame
      card={card}
      kind="task"
      question="Schedule this task?"
      what="Scheduled task"
      subject={approval.text}
      facts={
        <>
          <HiddenCharsNote parts={parts} differs="what runs" />
          <pre className="approval-command task-prompt-text" data-testid="task-approval-prompt" tabIndex={0} aria-label="The prompt the task runs">
            <HiddenText text={approval.text} newline="break" />
          </pre>
          <dl className="approval-facts">
            <dt>When</dt>
            <dd data-testid="task-approval-schedule">
              <HiddenText text={approval.schedule} newline="escape" />
            </dd>
          </dl>
          <p className="hint">It runs on its own at these times, in this conversation, until you pause or delete it in Settings → Tasks.</p>
        </>
      }
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <>
          <div className="approval-actions" role="group" aria-label="Your answer">
            <button type="button" className="approval-approve" data-testid="approve-once" disabled={busy} onClick={() => onDecide(approval.id, 'approve', '')}>
              Allow
            </button>
            <DenyWithNote id={approval.id} busy={busy} onDecide={onDecide} />
          </div>
          <AnswerStatus busy={busy} error={error} />
        </>
      }
    />
  )
}
