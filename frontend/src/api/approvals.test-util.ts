// Approvals and grants as docs/approvals.md shows them, for tests: a shell
// command's, an MCP tool call's and a REMEMBER's.

import type { Approval, Grant } from './approvalTypes'

export const approvalExample: Approval = {
  id: 'ap_1',
  kind: 'shell',
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
  server: '',
  tool: '',
  arguments: null,
  annotations: null,
  toolTitle: '',
  toolDescription: '',
  text: '',
  url: '',
  path: '',
  root: '',
  diff: '',
  schedule: '',
}

/** A call of the tool create_issue of the MCP server github. */
export const mcpApprovalExample: Approval = {
  ...approvalExample,
  id: 'ap_2',
  kind: 'mcp',
  callId: 'call_2',
  toolName: 'github__create_issue',
  command: '',
  cwd: '',
  reason: '',
  bases: ['github.create_issue'],
  grantable: ['github.create_issue'],
  alwaysAsk: [],
  server: 'github',
  tool: 'create_issue',
  arguments: { repo: 'me/wisp', title: 'Crash on start', labels: ['bug'] },
  annotations: { title: 'Create an issue', destructiveHint: false, openWorldHint: true },
  toolTitle: 'Create an issue',
  toolDescription: 'Opens a new issue in a repository.',
}

/** The agent's REMEMBER: a note it proposes for the memory. */
export const memoryApprovalExample: Approval = {
  ...approvalExample,
  id: 'ap_3',
  kind: 'memory',
  callId: 'call_3',
  toolName: 'REMEMBER',
  command: '',
  cwd: '',
  reason: '',
  bases: [],
  grantable: [],
  text: 'The user prefers **tea** to coffee.\n<img src=x onerror=alert(1)>',
}

export const grantExample: Grant = { id: 'g1', kind: 'shell', base: 'git', createdAt: '2026-11-25T01:00:00Z' }

export const mcpGrantExample: Grant = { id: 'g2', kind: 'mcp', base: 'github.create_issue', createdAt: '2026-11-25T01:00:00Z' }
