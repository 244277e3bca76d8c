// Wire types of MCP (Model Context Protocol) servers: the servers wisp.json
// declares under mcpServers, their tools (the agent's actions server__tool)
// and the edits of PUT /api/mcp/servers/{name}. Decoders live in
// mcpDecode.ts; nothing here has behaviour.

/** disabled: "disabled": true in wisp.json; failed: it stopped or never started (retried later). */
export type McpStatus = 'starting' | 'running' | 'failed' | 'disabled'

/** stdio: a command Wisp runs; http: a Streamable HTTP URL. */
export type McpTransport = 'stdio' | 'http'

/** What a server says about a tool; hints only, never a reason to skip the user's approval. */
export interface McpToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

export interface McpTool {
  /** The server's name for it. */
  name: string
  /** The agent's name for it: server__tool. */
  action: string
  /** '' when the server gave none. */
  title: string
  description: string
  /** A JSON Schema object. */
  inputSchema: unknown
  annotations: McpToolAnnotations | null
}

/** A server's entry of wisp.json, without its secrets: env and headers by name only. */
export interface McpServerConfig {
  transport: McpTransport
  /** stdio ('' and [] for http). */
  command: string
  args: string[]
  cwd: string
  /** http ('' for stdio). */
  url: string
  envKeys: string[]
  headerKeys: string[]
  disabled: boolean
}

export interface McpServer {
  name: string
  status: McpStatus
  config: McpServerConfig
  tools: McpTool[]
  /** '' when none. */
  lastError: string
  /** The last lines the process wrote to stderr (at most 50). */
  stderr: string[]
  restarts: number
  /** ISO 8601: the next automatic retry while failed; null otherwise. */
  retryAt: string | null
  /** ISO 8601: when it entered its status. */
  since: string
}

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
  server: McpServer
  created: boolean
}

/** /ws: every server, whenever one's status, tools or config changed. */
export interface McpServersMessage {
  type: 'mcp-servers'
  servers: McpServer[]
}
