// Text someone else wrote (a model's command, an MCP server's tool), drawn
// with its hidden and direction-changing characters as visible escapes
// (hiddenChars.ts), never raw; and the note a card shows when it has any.

import './HiddenText.css'
import { Fragment, memo, useMemo } from 'react'
import { hiddenTitle, revealHidden, type HiddenMark } from '../hiddenChars'

/**
 * What a line feed is drawn as: `mark`, a ↵ and the line break (a command,
 * where it starts another command); `break`, the line break alone (JSON and
 * output, where lines are layout); `escape`, `\n` (a name, a title: one line).
 */
export type NewlineStyle = 'mark' | 'break' | 'escape'

interface Props {
  text: string
  newline?: NewlineStyle
}

export const HiddenText = memo(function HiddenText({ text, newline = 'mark' }: Props) {
  const { pieces } = useMemo(() => revealHidden(text, { plainNewlines: newline === 'break' }), [text, newline])
  return pieces.map((p, i) => (typeof p === 'string' ? <Fragment key={i}>{p}</Fragment> : <Mark key={i} mark={p} newline={newline} />))
})

function Mark({ mark, newline }: { mark: HiddenMark; newline: NewlineStyle }) {
  const lineBreak = mark.kind === 'newline' && newline === 'mark'
  const shown = (
    <span
      className={`hidden-char hidden-${mark.kind}`}
      data-hidden-char={`u+${mark.code.toString(16).padStart(4, '0')}`}
      title={hiddenTitle(mark)}
    >
      {lineBreak ? '↵' : mark.escape}
    </span>
  )
  return lineBreak ? (
    <>
      {shown}
      {'\n'}
    </>
  ) : (
    shown
  )
}

export interface HiddenPart {
  /** What has them: "This command", "its reason". */
  what: string
  /** what is plural ("These arguments"). */
  plural?: boolean
  count: number
}

/**
 * "This command and its reason contain 3 hidden or direction-changing
 * characters…", for the parts with any; nothing when none has.
 */
export function HiddenCharsNote({ parts, differs }: { parts: readonly HiddenPart[]; differs: string }) {
  const found = parts.filter((p) => p.count > 0)
  if (found.length === 0) return null
  const total = found.reduce((n, p) => n + p.count, 0)
  const names = found.map((p) => p.what)
  const subject = names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]!}`
  const plural = found.length > 1 || found[0]!.plural === true
  const chars = `${total} hidden or direction-changing character${total === 1 ? '' : 's'}`
  const text =
    `${subject[0]!.toUpperCase()}${subject.slice(1)} ${plural ? 'contain' : 'contains'} ${chars}, shown as \\u…: ` +
    `what ${plural ? 'they look' : 'it looks'} like elsewhere may differ from ${differs}.`
  return (
    <p className="approval-hidden-note" data-testid="approval-hidden-chars" data-count={total}>
      {text}
    </p>
  )
}
