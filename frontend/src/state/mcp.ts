// MCP servers as the page knows them: the list of GET /api/mcp/servers,
// replaced whole by every mcp-servers frame, and the server an answer of
// PUT or restart brings. Pure; mcpStore.ts holds it and makes the requests.

import type { McpServer, McpStatus, McpToolAnnotations } from '../api'

export interface McpState {
  /** By name; null until first loaded. */
  servers: readonly McpServer[] | null
  /** Why the list could not be loaded. */
  loadError: string | null
}

export const initialMcp: McpState = { servers: null, loadError: null }

/** By name, in the server's order (code units, as Go sorts). */
function byName(servers: readonly McpServer[]): McpServer[] {
  return [...servers].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** The whole list: GET /api/mcp/servers, or an mcp-servers frame. */
export function serversLoaded(servers: readonly McpServer[]): McpState {
  return { servers: byName(servers), loadError: null }
}

/** One server as an answer of PUT or restart gives it: added or replaced. */
export function serverUpdated(state: McpState, server: McpServer): McpState {
  const rest = (state.servers ?? []).filter((s) => s.name !== server.name)
  return { ...state, servers: byName([...rest, server]) }
}

export function serverRemoved(state: McpState, name: string): McpState {
  if (state.servers === null || !state.servers.some((s) => s.name === name)) return state
  return { ...state, servers: state.servers.filter((s) => s.name !== name) }
}

export function serversFailed(state: McpState, message: string): McpState {
  return { ...state, loadError: message }
}

export const STATUS_LABEL: Record<McpStatus, string> = {
  starting: 'starting…',
  running: 'running',
  failed: 'failed',
  disabled: 'disabled',
}

export interface AnnotationBadge {
  /** The annotation it shows: readOnlyHint → "readOnly". */
  hint: 'readOnly' | 'destructive' | 'idempotent' | 'openWorld'
  label: string
  /** What the server claims, said as a claim. */
  title: string
}

const BADGES: readonly (AnnotationBadge & { key: keyof McpToolAnnotations })[] = [
  { key: 'readOnlyHint', hint: 'readOnly', label: 'read-only', title: 'The server says this tool only reads' },
  { key: 'destructiveHint', hint: 'destructive', label: 'destructive', title: 'The server says this tool may delete or overwrite things' },
  { key: 'idempotentHint', hint: 'idempotent', label: 'idempotent', title: 'The server says calling it again with the same arguments does nothing more' },
  { key: 'openWorldHint', hint: 'openWorld', label: 'open world', title: 'The server says this tool reaches outside (the internet, other services)' },
]

/** The badges of the hints a server set to true; informative only (a server may say anything). */
export function annotationBadges(annotations: McpToolAnnotations | null): AnnotationBadge[] {
  if (annotations === null) return []
  return BADGES.filter((b) => annotations[b.key] === true).map(({ hint, label, title }) => ({ hint, label, title }))
}
