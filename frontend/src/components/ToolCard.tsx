import './ToolCard.css'
import { memo, type MouseEvent } from 'react'
import { sliceWhole } from '../format'
import type { ToolView } from '../state/chat'
import { useShowTerminalRun } from '../state/terminalOpener'
import { CallEditUndo, EDIT_TOOLS } from './EditUndo'
import { HiddenText } from './HiddenText'

const STATUS_LABEL: Record<ToolView['status'], string> = {
  pending: 'pending',
  waiting: 'needs approval',
  executing: 'running',
  completed: 'done',
  failed: 'failed',
  interrupted: 'interrupted',
  cancelled: 'cancelled',
}

const MAX_SHOWN = 20_000

/** Strings as they are, anything else as indented JSON; cut when huge. */
export function showValue(value: unknown): string {
  let text: string
  if (typeof value === 'string') text = value
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value)
    } catch {
      text = String(value)
    }
  }
  if (text.length <= MAX_SHOWN) return text
  const shown = sliceWhole(text, MAX_SHOWN)
  return `${shown}\n… (${text.length - shown.length} more characters)`
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true
  return typeof value === 'object' && Object.keys(value).length === 0
}

/**
 * One action call of a reply: name and state in the summary, arguments and
 * result inside, their hidden and direction-changing characters drawn as
 * escapes (HiddenText). A streaming bubble redraws a card only when its call changed.
 */
export const ToolCard = memo(function ToolCard({ tool }: { tool: ToolView }) {
  return (
    <details className={`tool-card tool-${tool.status}`} data-testid="tool-card" data-status={tool.status}>
      <summary>
        <span className="tool-state" aria-hidden="true" />
        <span className="tool-name">
          <HiddenText text={tool.name} newline="escape" />
        </span>
        <span className="tool-status">{STATUS_LABEL[tool.status]}</span>
        {tool.terminalRunId !== undefined ? <ShowInTerminal runId={tool.terminalRunId} /> : null}
        {tool.status === 'completed' && EDIT_TOOLS.has(tool.name) ? <CallEditUndo callId={tool.callId} /> : null}
      </summary>
      <div className="tool-body">
        {isEmpty(tool.arguments) ? null : (
          <section>
            <h4>Arguments</h4>
            <pre className="as-run">
              <HiddenText text={showValue(tool.arguments)} newline="break" />
            </pre>
          </section>
        )}
        {tool.result === undefined ? null : (
          <section>
            <h4>Result</h4>
            <pre>
              <HiddenText text={showValue(tool.result)} newline="break" />
            </pre>
          </section>
        )}
        {tool.error === undefined ? null : (
          <section className="tool-error">
            <h4>Error</h4>
            <pre>
              <HiddenText text={tool.error} newline="break" />
            </pre>
          </section>
        )}
        {isEmpty(tool.arguments) && tool.result === undefined && tool.error === undefined ? (
          <p className="muted">No details.</p>
        ) : null}
      </div>
    </details>
  )
})

/** Opens the Terminal panel on the run of a shell command (a real button: clicking it does not fold the card). */
function ShowInTerminal({ runId }: { runId: string }) {
  const show = useShowTerminalRun()
  if (show === null) return null
  const onClick = (e: MouseEvent) => {
    e.preventDefault()
    show(runId)
  }
  return (
    <button type="button" className="link-button tool-terminal" data-testid="open-terminal-run" data-run-id={runId} onClick={onClick}>
      Show in Terminal
    </button>
  )
}
