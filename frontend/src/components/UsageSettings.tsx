// Settings › Usage: what the model calls took and cost, by day and model.

import './UsageSettings.css'
import { useEffect, useId } from 'react'
import { useStore } from '../state/store'
import { formatCost, formatCount } from '../state/usageFormat'
import { USAGE_PERIODS, usageTotals } from '../state/usageReport'
import { useWisp } from '../state/wispContext'
import type { UsageReport } from '../api'

export function UsageSettings() {
  const { usageReport } = useWisp()
  const state = useStore(usageReport, (s) => s)
  const selectId = useId()
  useEffect(() => {
    void usageReport.load()
  }, [usageReport])
  return (
    <section className="settings-section" aria-labelledby="settings-usage-title" data-testid="settings-section-usage">
      <h3 id="settings-usage-title">Usage</h3>
      <div className="usage-head">
        <label htmlFor={selectId}>Period</label>
        <select
          id={selectId}
          data-testid="usage-days"
          value={state.days}
          onChange={(e) => void usageReport.load(Number(e.target.value))}
        >
          {USAGE_PERIODS.map((d) => (
            <option key={d} value={d}>
              Last {d} days
            </option>
          ))}
        </select>
        {state.loading ? <span className="muted">Loading…</span> : null}
      </div>
      {state.error !== null ? (
        <p className="notice notice-error" role="alert" data-testid="usage-error">
          Could not read the usage: {state.error}
        </p>
      ) : null}
      {state.report === null ? null : <UsageTable report={state.report} />}
      <p className="hint">
        Costs come from the prices in the config file (<code>prices</code>, US dollars per million tokens); a model without
        a price is counted as unpriced, not as free.
      </p>
    </section>
  )
}

function UsageTable({ report }: { report: UsageReport }) {
  if (report.rows.length === 0) return <p className="empty" data-testid="usage-empty">No model calls in this period.</p>
  const totals = usageTotals(report)
  return (
    <table className="usage-table" data-testid="usage-table">
      <thead>
        <tr>
          <th scope="col">Day</th>
          <th scope="col">Model</th>
          <th scope="col">Calls</th>
          <th scope="col">In</th>
          <th scope="col">Out</th>
          <th scope="col">Cached</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r) => (
          <tr key={`${r.day} ${r.model}`} data-testid="usage-row">
            <td>{r.day}</td>
            <td>{r.model || '—'}</td>
            <td>{formatCount(r.calls)}</td>
            <td>{formatCount(r.usage.inputTokens)}</td>
            <td>{formatCount(r.usage.outputTokens)}</td>
            <td>{formatCount(r.usage.cacheReadTokens)}</td>
            <td>{costCell(r.costUsd, r.unpriced, r.calls)}</td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr data-testid="usage-total">
          <td colSpan={2}>Total</td>
          <td>{formatCount(totals.calls)}</td>
          <td>{formatCount(report.total.inputTokens)}</td>
          <td>{formatCount(report.total.outputTokens)}</td>
          <td>{formatCount(report.total.cacheReadTokens)}</td>
          <td>{costCell(report.costUsd, totals.unpriced, totals.calls)}</td>
        </tr>
      </tfoot>
    </table>
  )
}

/** "$0.012", "$0.012 + 2 unpriced", "unpriced" when no call had a price. */
function costCell(usd: number, unpriced: number, calls: number): string {
  if (calls > 0 && unpriced >= calls) return 'unpriced'
  return unpriced === 0 ? formatCost(usd) : `${formatCost(usd)} + ${unpriced} unpriced`
}
