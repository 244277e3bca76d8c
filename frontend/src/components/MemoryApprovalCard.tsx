// The card of the agent's REMEMBER (docs/memory.md): a note it wants to keep
// in the memory, which every later turn's system prompt carries. The note is
// shown verbatim, as text (never markdown or HTML; hidden and
// direction-changing characters as escapes, like every card), then Save (as
// proposed), Edit (the note becomes an editable text; Save sends it, Esc or
// Cancel goes back) and Discard. Like the other cards: real buttons, no
// autofocus until the user asks to edit, and a decided card shrinks to its
// outcome.

import './approval.css'
import './MemoryApprovalCard.css'
import { useId, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { countHidden } from '../hiddenChars'
import { AnswerStatus, ApprovalFrame, type CardProps } from './ApprovalParts'
import { HiddenCharsNote, HiddenText, type HiddenPart } from './HiddenText'

export function MemoryApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  // 'back': shown again after Cancel, so the Edit button takes the focus back.
  const [mode, setMode] = useState<'view' | 'edit' | 'back'>('view')
  const editing = mode === 'edit'
  const parts = useMemo<HiddenPart[]>(() => [{ what: 'This note', count: countHidden(approval.text) }], [approval.text])
  return (
    <ApprovalFrame
      card={card}
      kind="memory"
      question="Remember this?"
      what="Note for the memory"
      subject={approval.text}
      facts={
        editing ? null : (
          <>
            <HiddenCharsNote parts={parts} differs="what is saved" />
            <pre className="memory-proposal" data-testid="memory-proposal" tabIndex={0} aria-label="The note to remember">
              <HiddenText text={approval.text} newline="break" />
            </pre>
          </>
        )
      }
      hiddenChars={parts[0]?.count ?? 0}
      actions={
        editing ? (
          <MemoryEditor card={card} onDecide={onDecide} onCancel={() => setMode('back')} />
        ) : (
          <MemoryActions card={card} onDecide={onDecide} focusEdit={mode === 'back'} onEdit={() => setMode('edit')} />
        )
      }
    />
  )
}

function MemoryActions({ card, onDecide, focusEdit, onEdit }: CardProps & { focusEdit: boolean; onEdit(): void }) {
  const { approval, sending, error } = card
  const busy = sending !== null
  return (
    <>
      <div className="approval-actions" role="group" aria-label="Your answer">
        <button type="button" className="approval-approve" data-testid="memory-save" disabled={busy} onClick={() => onDecide(approval.id, 'approve', '')}>
          Save
        </button>
        <button type="button" data-testid="memory-edit" disabled={busy} autoFocus={focusEdit} onClick={onEdit}>
          Edit
        </button>
        <button type="button" className="danger" data-testid="memory-discard" disabled={busy} onClick={() => onDecide(approval.id, 'deny', '')}>
          Discard
        </button>
      </div>
      <AnswerStatus busy={busy} error={error} />
    </>
  )
}

/** The note as an editable text: Save sends it (approve with the text), Esc or Cancel goes back to the proposal. */
function MemoryEditor({ card, onDecide, onCancel }: CardProps & { onCancel(): void }) {
  const { approval, sending, error } = card
  const busy = sending !== null
  const [text, setText] = useState(approval.text)
  const id = useId()
  const focused = useRef(false)
  const save = () => {
    if (text.trim() !== '') onDecide(approval.id, 'approve', '', undefined, text)
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === 'Escape') {
      // Esc leaves the edit (not the view around the card).
      e.preventDefault()
      e.stopPropagation()
      onCancel()
    } else if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault()
      save()
    }
  }
  return (
    <>
      <label htmlFor={id} className="visually-hidden">
        The note to remember (Ctrl+Enter saves, Esc cancels)
      </label>
      <textarea
        id={id}
        ref={(el) => {
          // The user asked to edit: the text takes the focus once.
          if (el !== null && !focused.current) {
            focused.current = true
            el.focus()
          }
        }}
        className="memory-edit"
        data-testid="memory-edit-text"
        value={text}
        disabled={busy}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKeyDown}
      />
      <div className="approval-actions" role="group" aria-label="Your answer">
        <button type="button" className="approval-approve" data-testid="memory-edit-save" disabled={busy || text.trim() === ''} onClick={save}>
          Save
        </button>
        <button type="button" className="secondary" data-testid="memory-edit-cancel" disabled={busy} onClick={onCancel}>
          Cancel
        </button>
      </div>
      <AnswerStatus busy={busy} error={error} />
    </>
  )
}
