// Settings › Usage: every model call of the last days by day and model
// (GET /api/usage?days=), outside React. load(days) reads it (an answer older
// than a later load is dropped); the section shows what it holds.

import type { ApiClient, UsageReport } from '../api'
import { errorMessage } from './chatRunner'
import { Store } from './store'

/** The periods the section offers. */
export const USAGE_PERIODS = [7, 30, 90] as const

export interface UsageReportState {
  days: number
  report: UsageReport | null
  loading: boolean
  error: string | null
}

export class UsageReportStore extends Store<UsageReportState> {
  private generation = 0
  private readonly api: () => ApiClient | null

  constructor(api: () => ApiClient | null) {
    super({ days: 30, report: null, loading: false, error: null })
    this.api = api
  }

  /** Reads the report of the last `days` days (the ones shown when not given). */
  readonly load = async (days: number = this.get().days): Promise<void> => {
    const api = this.api()
    if (api === null) return
    const gen = ++this.generation
    const sameDays = days === this.get().days
    this.patch({ days, loading: true, ...(sameDays ? {} : { report: null }) })
    try {
      const report = await api.context.getUsage(days)
      if (gen === this.generation) this.set({ days, report, loading: false, error: null })
    } catch (err) {
      if (gen === this.generation) this.patch({ loading: false, error: errorMessage(err) })
    }
  }
}

export interface UsageTotals {
  calls: number
  unpriced: number
}

/** The calls and unpriced calls of a report (its rows'). */
export function usageTotals(report: UsageReport): UsageTotals {
  return report.rows.reduce((t, r) => ({ calls: t.calls + r.calls, unpriced: t.unpriced + r.unpriced }), { calls: 0, unpriced: 0 })
}
