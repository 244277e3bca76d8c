// Runtime checks for MCP servers and their tools (mcpTypes.ts). Like the
// other decoders, a value with a required field missing or of the wrong type
// is rejected (null) rather than passed on with a lying type; a list decodes
// whole or not at all. Fields a server may leave out take their empty value.

import { BAD, decodeAll, isBoolean, isObject, isString, isStringArray, oneOf, orDefault } from './guards'
import type { JsonObject } from './json'
import type { McpServer, McpServerConfig, McpServersMessage, McpTool, McpToolAnnotations } from './mcpTypes'

const isStatus = oneOf(['starting', 'running', 'failed', 'disabled'])
const isTransport = oneOf(['stdio', 'http'])
const isName = (v: unknown): v is string => isString(v) && v !== ''
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0
const isStringOrNull = (v: unknown): v is string | null => v === null || isString(v)

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const

/** A tool's annotations: only the fields present, each of its type (anything else rejects them). */
export function decodeMcpAnnotations(v: unknown): McpToolAnnotations | null {
  if (!isObject(v)) return null
  const out: McpToolAnnotations = {}
  if (v.title !== undefined) {
    if (!isString(v.title)) return null
    out.title = v.title
  }
  for (const hint of HINTS) {
    const value = v[hint]
    if (value === undefined) continue
    if (!isBoolean(value)) return null
    out[hint] = value
  }
  return out
}

/** Absent or null: none; an object: decoded (BAD when malformed). */
export function annotationsField(v: unknown): McpToolAnnotations | null | typeof BAD {
  if (v === undefined || v === null) return null
  return decodeMcpAnnotations(v) ?? BAD
}

export function decodeMcpTool(v: unknown): McpTool | null {
  if (!isObject(v) || !isName(v.name) || !isName(v.action)) return null
  const title = orDefault(v.title, isString, '')
  const description = orDefault(v.description, isString, '')
  const annotations = annotationsField(v.annotations)
  if (title === BAD || description === BAD || annotations === BAD) return null
  const inputSchema = v.inputSchema === undefined ? {} : v.inputSchema
  return { name: v.name, action: v.action, title, description, inputSchema, annotations }
}

export function decodeMcpServerConfig(v: unknown): McpServerConfig | null {
  if (!isObject(v) || !isTransport(v.transport)) return null
  const command = orDefault(v.command, isString, '')
  const args = orDefault(v.args, isStringArray, [])
  const cwd = orDefault(v.cwd, isString, '')
  const url = orDefault(v.url, isString, '')
  const envKeys = orDefault(v.envKeys, isStringArray, [])
  const headerKeys = orDefault(v.headerKeys, isStringArray, [])
  const disabled = orDefault(v.disabled, isBoolean, false)
  if (command === BAD || args === BAD || cwd === BAD || url === BAD) return null
  if (envKeys === BAD || headerKeys === BAD || disabled === BAD) return null
  return { transport: v.transport, command, args, cwd, url, envKeys, headerKeys, disabled }
}

export function decodeMcpServer(v: unknown): McpServer | null {
  if (!isObject(v) || !isName(v.name) || !isStatus(v.status) || !isString(v.since)) return null
  const config = decodeMcpServerConfig(v.config)
  const tools = decodeAll(v.tools, decodeMcpTool)
  if (config === null || tools === null) return null
  const lastError = orDefault(v.lastError, isString, '')
  const stderr = orDefault(v.stderr, isStringArray, [])
  const restarts = orDefault(v.restarts, isCount, 0)
  const retryAt = orDefault(v.retryAt, isStringOrNull, null)
  if (lastError === BAD || stderr === BAD || restarts === BAD || retryAt === BAD) return null
  return { name: v.name, status: v.status, config, tools, lastError, stderr, restarts, retryAt, since: v.since }
}

/** GET /api/mcp/servers: {servers:[...]}. */
export function decodeMcpServerList(v: unknown): McpServer[] | null {
  return isObject(v) ? decodeAll(v.servers, decodeMcpServer) : null
}

/** PUT and POST .../restart: {server}. */
export function decodeMcpServerBody(v: unknown): McpServer | null {
  return isObject(v) ? decodeMcpServer(v.server) : null
}

/** /ws mcp-servers. */
export function decodeMcpServersFrame(v: JsonObject): McpServersMessage | null {
  const servers = decodeAll(v.servers, decodeMcpServer)
  return servers === null ? null : { type: 'mcp-servers', servers }
}
