// A unified diff as the file_edit card shows it (docs/files.md): each line with
// its old and new line numbers, added lines green, removed red, hunk headers
// apart; in a block of bounded height that scrolls. Lines are drawn through
// HiddenText, so hidden and direction-changing characters in what the model
// wrote show as escapes. A huge diff is cut at MAX_DIFF_LINES, and the card
// says how many lines it does not show.

import './DiffView.css'
import { memo, useMemo } from 'react'
import { HiddenText } from './HiddenText'

/** The most lines drawn (the rest is counted). */
export const MAX_DIFF_LINES = 4000

export type DiffLineKind = 'add' | 'del' | 'ctx' | 'hunk' | 'file' | 'note'

export interface DiffLine {
  kind: DiffLineKind
  text: string
  /** Line numbers in the file before and after ('' where the line is not there). */
  old: number | ''
  new: number | ''
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/

/** The lines of a unified diff, numbered. */
export function parseDiff(diff: string): DiffLine[] {
  const out: DiffLine[] = []
  let oldNo = 0
  let newNo = 0
  const lines = diff.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  for (const line of lines) {
    const hunk = HUNK.exec(line)
    if (hunk !== null) {
      oldNo = Number(hunk[1])
      newNo = Number(hunk[3])
      if (hunk[2] === '0') oldNo++ // "-0,0": nothing before; "-5,0": inserted after line 5
      if (hunk[4] === '0') newNo++
      out.push({ kind: 'hunk', text: line, old: '', new: '' })
    } else if (line.startsWith('--- ') || line.startsWith('+++ ')) {
      out.push({ kind: 'file', text: line, old: '', new: '' })
    } else if (line.startsWith('+')) {
      out.push({ kind: 'add', text: line.slice(1), old: '', new: newNo++ })
    } else if (line.startsWith('-')) {
      out.push({ kind: 'del', text: line.slice(1), old: oldNo++, new: '' })
    } else if (line.startsWith(' ')) {
      out.push({ kind: 'ctx', text: line.slice(1), old: oldNo++, new: newNo++ })
    } else {
      out.push({ kind: 'note', text: line, old: '', new: '' }) // "\ No newline at end of file", "# no undo: …"
    }
  }
  return out
}

const SIGN: Record<DiffLineKind, string> = { add: '+', del: '-', ctx: ' ', hunk: '', file: '', note: '' }

export const DiffView = memo(function DiffView({ diff }: { diff: string }) {
  const lines = useMemo(() => parseDiff(diff), [diff])
  const shown = lines.length > MAX_DIFF_LINES ? lines.slice(0, MAX_DIFF_LINES) : lines
  const added = lines.filter((l) => l.kind === 'add').length
  const removed = lines.filter((l) => l.kind === 'del').length
  return (
    <div className="diff-view" data-testid="diff-view" data-added={added} data-removed={removed}>
      <p className="diff-summary muted">
        <span className="diff-count-add">+{added}</span> <span className="diff-count-del">−{removed}</span> lines
      </p>
      <div className="diff-scroll" tabIndex={0} role="region" aria-label="The change, as a diff">
        <table className="diff-table">
          <tbody>
            {shown.map((l, i) => (
              <tr key={i} className={`diff-line diff-${l.kind}`} data-kind={l.kind}>
                <td className="diff-no" aria-hidden="true">
                  {l.old}
                </td>
                <td className="diff-no" aria-hidden="true">
                  {l.new}
                </td>
                <td className="diff-text">
                  <span className="diff-sign" aria-label={l.kind === 'add' ? 'added' : l.kind === 'del' ? 'removed' : undefined}>
                    {SIGN[l.kind]}
                  </span>
                  <HiddenText text={l.text} newline="escape" />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {lines.length > shown.length ? (
        <p className="diff-cut" role="note" data-testid="diff-cut">
          {lines.length - shown.length} more lines of the change are not shown here.
        </p>
      ) : null}
    </div>
  )
})
