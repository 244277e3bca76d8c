import './SummaryRow.css'
import { memo, useCallback, useId, useState } from 'react'
import type { Summary } from '../api'
import type { SummaryLiveState } from '../state/summaries'
import { useStore } from '../state/store'
import { summaryCovers } from '../state/usageFormat'
import { useWisp } from '../state/wispContext'

/**
 * A summary of the messages up to the one above it: "Earlier in this
 * conversation", what it covers, its text behind a disclosure (shown while
 * it is being written), Regenerate and Undo. A failed one says so and offers
 * Regenerate. Its text is the model's, shown as plain text.
 */
export const SummaryRow = memo(function SummaryRow({ summary }: { summary: Summary }) {
  const { summaries, summaryLive } = useWisp()
  const live = useStore(summaryLive, useCallback((s: SummaryLiveState) => s.text.get(summary.id), [summary.id]))
  const busy = useStore(summaryLive, useCallback((s: SummaryLiveState) => s.busy.has(summary.id), [summary.id]))
  const [open, setOpen] = useState<boolean | null>(null)
  const textId = useId()
  const streaming = summary.status === 'streaming' || live !== undefined
  const shown = open ?? streaming
  const text = live ?? summary.text
  return (
    <li className="summary-row" data-testid="summary-row" data-summary-id={summary.id} data-status={summary.status}>
      <div className="summary-head">
        <button
          type="button"
          className="summary-toggle"
          data-testid="summary-toggle"
          aria-expanded={shown}
          aria-controls={textId}
          onClick={() => setOpen(!shown)}
        >
          Earlier in this conversation
        </button>
        <span className="summary-covers" data-testid="summary-covers">
          {summaryCovers(summary)}
          {streaming ? ' (writing…)' : ''}
        </span>
        <span className="summary-actions">
          <button
            type="button"
            className="message-action"
            data-testid="summary-regenerate"
            title="Summarise these messages again"
            disabled={busy || streaming}
            onClick={() => summaries.regenerate(summary.id)}
          >
            Regenerate
          </button>
          {summary.status === 'failed' ? null : (
            <button
              type="button"
              className="message-action"
              data-testid="summary-undo"
              title="Send the messages themselves again instead of this summary"
              disabled={busy || streaming}
              onClick={() => summaries.undo(summary.id)}
            >
              Undo
            </button>
          )}
        </span>
      </div>
      {summary.status === 'failed' ? (
        <p className="summary-error notice notice-error" role="alert" data-testid="summary-error">
          The summary failed{summary.error ? `: ${summary.error}` : '.'}
        </p>
      ) : null}
      <p className="summary-text" id={textId} data-testid="summary-text" hidden={!shown}>
        {text}
      </p>
    </li>
  )
})
