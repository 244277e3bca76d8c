// Decoders of MCP servers' answers and frame: the generated checks of wire.gen.ts,
// with null for a value that is not its shape (a list decodes whole or not at all).

import type { JsonObject } from './json'
import type { McpServer, McpServersMessage } from './mcpTypes'
import { decodeMCPServer, decodeMCPServerBody, decodeMCPServerList, decodeMCPServers, decodeOrNull } from './wire.gen'

export function decodeMcpServer(v: unknown): McpServer | null {
  return decodeOrNull(decodeMCPServer, v)
}

/** GET /api/mcp/servers: {servers:[...]}. */
export function decodeMcpServerList(v: unknown): McpServer[] | null {
  return decodeOrNull(decodeMCPServerList, v)?.servers ?? null
}

/** PUT and POST .../restart: {server}. */
export function decodeMcpServerBody(v: unknown): McpServer | null {
  return decodeOrNull(decodeMCPServerBody, v)?.server ?? null
}

/** /ws mcp-servers. */
export function decodeMcpServersFrame(v: JsonObject): McpServersMessage | null {
  return decodeOrNull(decodeMCPServers, v)
}
