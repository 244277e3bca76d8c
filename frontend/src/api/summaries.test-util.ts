// A summary for tests (issue 30's wire.Summary).

import type { Summary } from './contextTypes'

export const summaryExample: Summary = {
  id: 's1',
  conversationId: 'c1',
  throughId: 'm48',
  covers: 48,
  fromAt: '2026-11-03T10:00:00Z',
  throughAt: '2026-11-27T18:00:00Z',
  text: 'They planned a trip to Lisbon.',
  status: 'done',
  runId: 'run-s1',
  tokens: 120,
  createdAt: '2026-11-27T18:00:01Z',
}
