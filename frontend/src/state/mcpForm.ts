// The Add/Edit form of an MCP server, as text the user types, and the
// PUT /api/mcp/servers/{name} body it becomes. Arguments are one a line;
// the environment is KEY=VALUE lines and headers "Name: value" lines. Saved
// env and header values are secrets the server never sends: an edited
// server's keys show with MASK as their value, and a line left with MASK
// keeps the saved value (null in the body); a removed line removes the key.

import type { McpServer, McpServerEdit, McpTransport } from '../api'

/** Stands for a saved secret value in the form. */
export const MASK = '••••••••'

/** The server's limit on a name's length, in bytes (mcp.MaxNameLen). */
export const MAX_NAME_BYTES = 64

export interface McpDraft {
  name: string
  transport: McpTransport
  command: string
  /** One argument a line. */
  args: string
  cwd: string
  /** KEY=VALUE lines. */
  env: string
  url: string
  /** "Name: value" lines. */
  headers: string
}

export type DraftField = keyof McpDraft

export const EMPTY_DRAFT: McpDraft = { name: '', transport: 'stdio', command: '', args: '', cwd: '', env: '', url: '', headers: '' }

/** The form of a saved server: its values, its secrets masked. */
export function draftOf(server: McpServer): McpDraft {
  const { config } = server
  return {
    name: server.name,
    transport: config.transport,
    command: config.command,
    args: config.args.join('\n'),
    cwd: config.cwd,
    env: config.envKeys.map((k) => `${k}=${MASK}`).join('\n'),
    url: config.url,
    headers: config.headerKeys.map((k) => `${k}: ${MASK}`).join('\n'),
  }
}

export type EditResult =
  | { ok: true; name: string; edit: McpServerEdit }
  | { ok: false; field: DraftField; error: string }

const fail = (field: DraftField, error: string): EditResult => ({ ok: false, field, error })

/** What is wrong with a server's name (the server's own rules), or null. */
export function nameProblem(name: string): string | null {
  if (name === '') return 'Give the server a name.'
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return `A name is at most ${MAX_NAME_BYTES} bytes long.`
  if (/[/\u0000-\u001f\u007f-\u009f]/.test(name)) return 'A name cannot have a slash or a control character.'
  return null
}

function isHttpURL(s: string): boolean {
  try {
    const url = new URL(s)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.host !== ''
  } catch {
    return false
  }
}

/**
 * The body of the PUT for a draft; existing is the server being edited (null:
 * a new one), whose saved keys a masked line keeps and whose disabled flag
 * the edit keeps.
 */
export function buildEdit(draft: McpDraft, existing: McpServer | null): EditResult {
  const name = existing?.name ?? draft.name.trim()
  const problem = nameProblem(name)
  if (problem !== null) return fail('name', problem)
  const disabled = existing?.config.disabled ?? false
  if (draft.transport === 'http') {
    const url = draft.url.trim()
    if (url === '') return fail('url', 'Give the URL of the server.')
    if (!isHttpURL(url)) return fail('url', 'The URL must start with http:// or https://.')
    const headers = parsePairs(draft.headers, ':', existing?.config.headerKeys ?? [], HEADER_LINES)
    if (typeof headers === 'string') return fail('headers', headers)
    return { ok: true, name, edit: { url, headers, disabled } }
  }
  const command = draft.command.trim()
  if (command === '') return fail('command', 'Give the command that starts the server.')
  const env = parsePairs(draft.env, '=', existing?.config.envKeys ?? [], ENV_LINES)
  if (typeof env === 'string') return fail('env', env)
  return { ok: true, name, edit: { command, args: lines(draft.args), cwd: draft.cwd.trim(), env, disabled } }
}

/** The edit that only turns a server on or off, keeping every saved value. */
export function toggleEdit(server: McpServer, disabled: boolean): McpServerEdit {
  const { config } = server
  const keep = (keys: readonly string[]) => Object.fromEntries(keys.map((k) => [k, null]))
  if (config.transport === 'http') return { url: config.url, headers: keep(config.headerKeys), disabled }
  return { command: config.command, args: [...config.args], cwd: config.cwd, env: keep(config.envKeys), disabled }
}

/** The non-blank lines, trimmed. */
function lines(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
}

interface PairRules {
  what: string
  example: string
  /** What is wrong with a key, or null. */
  badKey(key: string): string | null
}

const ENV_LINES: PairRules = {
  what: 'environment',
  example: 'KEY=value',
  badKey: (k) => (/[\s\u0000]/.test(k) ? `${JSON.stringify(k)} is not a variable name.` : null),
}

const HEADER_LINES: PairRules = {
  what: 'headers',
  example: 'Name: value',
  badKey: (k) => (/[\s:\u0000]/.test(k) ? `${JSON.stringify(k)} is not a header name.` : null),
}

/** Lines of key<sep>value (both trimmed) as the body's map (a masked saved key: null), or what is wrong with them. */
function parsePairs(text: string, sep: string, saved: readonly string[], rules: PairRules): Record<string, string | null> | string {
  const out: Record<string, string | null> = {}
  const seen = new Set<string>()
  const all = text.split(/\r?\n/)
  for (let i = 0; i < all.length; i++) {
    const line = all[i] ?? ''
    if (line.trim() === '') continue
    const at = line.indexOf(sep)
    const key = at < 0 ? '' : line.slice(0, at).trim()
    if (key === '') return `Line ${i + 1} of the ${rules.what}: write ${rules.example}.`
    const bad = rules.badKey(key)
    if (bad !== null) return `Line ${i + 1} of the ${rules.what}: ${bad}`
    if (seen.has(key)) return `${key} is in the ${rules.what} twice.`
    seen.add(key)
    const value = line.slice(at + 1).trim()
    if (value === MASK) {
      if (!saved.includes(key)) return `Type a value for ${key}: it has no saved value to keep.`
      out[key] = null
    } else out[key] = value
  }
  return out
}
