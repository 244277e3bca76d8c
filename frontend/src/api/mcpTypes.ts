// Wire types of MCP (Model Context Protocol) servers: the servers wisp.json
// declares under mcpServers, their tools (the agent's actions server__tool)
// and the edits of PUT /api/mcp/servers/{name}. What the server sends is
// generated from the Go types (wire.gen.ts, app/wire/mcp.go); the names here are
// the UI's. Decoders live in mcpDecode.ts.

import type { MCPServer } from './wire.gen'

export type {
  MCPServerStatus as McpStatus,
  MCPTransport as McpTransport,
  ToolAnnotations as McpToolAnnotations,
  MCPTool as McpTool,
  MCPServerConfig as McpServerConfig,
  MCPServer as McpServer,
  MCPServers as McpServersMessage,
} from './wire.gen'

/**
 * The body of PUT /api/mcp/servers/{name}: command (with args, cwd, env) for
 * stdio, or url (with headers) for http. In env and headers a string sets the
 * value, null keeps the current (secret) one, and a key left out is removed.
 */
export interface McpServerEdit {
  command?: string
  args?: string[]
  cwd?: string
  env?: Record<string, string | null>
  url?: string
  headers?: Record<string, string | null>
  disabled?: boolean
}

/** The answer of PUT /api/mcp/servers/{name}: the server as it is now; created when the PUT added it (201). */
export interface McpServerSaved {
  server: MCPServer
  created: boolean
}
