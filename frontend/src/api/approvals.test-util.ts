// An approval and a grant as docs/approvals.md shows them, for tests.

import type { Approval, Grant } from './approvalTypes'

export const approvalExample: Approval = {
  id: 'ap_1',
  runId: 'run-1',
  conversationId: 'c1',
  callId: 'call_1',
  toolName: 'RUN_SHELL',
  command: 'git status && rm -rf build',
  cwd: '/home/me/src/wisp',
  reason: 'See what changed before cleaning',
  bases: ['git', 'rm'],
  grantable: ['rm'],
  alwaysAsk: [],
  status: 'pending',
  decision: null,
  note: '',
  createdAt: '2026-11-25T01:00:00Z',
  decidedAt: null,
}

export const grantExample: Grant = { id: 'g1', base: 'git', createdAt: '2026-11-25T01:00:00Z' }
