import { useLayoutEffect, useRef } from 'react'
import type { BranchControl } from '../state/chatController'
import { useChat } from '../state/useChat'

interface Props {
  /** The message's id (the version shown). */
  messageId: string | null
  /** The ids of its versions, oldest first, and where it is among them. */
  ids: readonly string[]
  index: number
  /** A reply streams or the conversation loads: no other version can be shown now. */
  disabled: boolean
  /** Shows the version id; focus: the button that asked (it keeps the focus in the version shown). */
  onShow(id: string, focus: BranchControl): void
}

/**
 * `‹ 2 / 3 ›` under a message with other versions: the buttons show the
 * previous or the next version (its branch, down to its newest message), and
 * are disabled at the ends. The button used keeps the focus in the version
 * it showed, so the versions can be walked with the keyboard.
 */
export function BranchNav({ messageId, ids, index, disabled, onShow }: Props) {
  const chat = useChat()
  const prev = useRef<HTMLButtonElement>(null)
  const next = useRef<HTMLButtonElement>(null)
  const before = ids[index - 1]
  const after = ids[index + 1]

  // This version was shown by a ‹ › button of the one before: its button takes the focus.
  useLayoutEffect(() => {
    if (messageId === null) return
    const control = chat.takeBranchFocus(messageId)
    if (control === null) return
    // At an end its own button is disabled: the other one takes it.
    const atEnd = control === 'prev' ? before === undefined : after === undefined
    ;((control === 'prev') !== atEnd ? prev : next).current?.focus()
  }, [chat, messageId, before, after])

  return (
    <div className="branch-nav" role="group" aria-label={`Version ${index + 1} of ${ids.length}`} data-testid="branch-nav">
      <button
        ref={prev}
        type="button"
        className="icon-button"
        aria-label="Previous version"
        data-testid="branch-prev"
        disabled={disabled || before === undefined}
        onClick={() => before !== undefined && onShow(before, 'prev')}
      >
        ‹
      </button>
      <span className="branch-position" data-testid="branch-position">
        {index + 1} / {ids.length}
      </span>
      <button
        ref={next}
        type="button"
        className="icon-button"
        aria-label="Next version"
        data-testid="branch-next"
        disabled={disabled || after === undefined}
        onClick={() => after !== undefined && onShow(after, 'next')}
      >
        ›
      </button>
    </div>
  )
}
