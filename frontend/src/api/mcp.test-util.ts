// MCP servers as GET /api/mcp/servers answers them, for tests: a running
// stdio server with two tools and a failed http one.

import type { McpServer } from './mcpTypes'

export const mcpServerExample: McpServer = {
  name: 'github',
  status: 'running',
  config: {
    transport: 'stdio',
    command: 'npx',
    args: ['-y', '@modelcontextprotocol/server-github'],
    cwd: '/home/me',
    url: '',
    envKeys: ['GITHUB_TOKEN'],
    headerKeys: [],
    disabled: false,
  },
  tools: [
    {
      name: 'create_issue',
      action: 'github__create_issue',
      title: 'Create an issue',
      description: 'Opens a new issue in a repository.',
      inputSchema: { type: 'object', properties: { repo: { type: 'string' }, title: { type: 'string' } }, required: ['repo'] },
      annotations: { destructiveHint: false, openWorldHint: true },
    },
    {
      name: 'list_issues',
      action: 'github__list_issues',
      title: '',
      description: 'Lists the open issues.',
      inputSchema: { type: 'object' },
      annotations: null,
    },
  ],
  lastError: '',
  stderr: ['GitHub MCP Server running on stdio'],
  restarts: 0,
  retryAt: null,
  since: '2026-11-25T01:00:00Z',
}

export const httpServerExample: McpServer = {
  name: 'search',
  status: 'failed',
  config: {
    transport: 'http',
    command: '',
    args: [],
    cwd: '',
    url: 'https://search.example/mcp',
    envKeys: [],
    headerKeys: ['Authorization'],
    disabled: false,
  },
  tools: [],
  lastError: 'initialize: 401 Unauthorized',
  stderr: [],
  restarts: 3,
  retryAt: '2026-11-25T01:05:00Z',
  since: '2026-11-25T01:04:00Z',
}
