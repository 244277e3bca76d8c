// A task's own standing grants (docs/tasks.md, "Grants of its own"), as
// Settings → Tasks shows and edits them: each grant in words, the kinds a
// task may carry with a placeholder each, and the checks made before PATCH
// (the server's, plus the shape of each kind's base: one word for a shell
// command, an absolute folder for the file kinds). The whole list is sent.

import type { TaskGrant } from '../api'
import { tildePath } from '../components/homePath'

/** The kinds a task's grant may be of (grantKinds in app/tasks). */
export type TaskGrantKind = 'shell' | 'mcp' | 'web' | 'file_read' | 'file_edit'

export const taskGrantKinds: readonly { kind: TaskGrantKind; label: string; placeholder: string }[] = [
  { kind: 'shell', label: 'Run a shell command', placeholder: 'git' },
  { kind: 'file_read', label: 'Read files in a folder', placeholder: '/home/you/project' },
  { kind: 'file_edit', label: 'Edit files in a folder', placeholder: '/home/you/project' },
  { kind: 'web', label: 'Fetch pages of a site', placeholder: 'example.com' },
  { kind: 'mcp', label: 'Call an MCP tool', placeholder: 'server.tool' },
]

/** The server's caps (MaxGrants and maxBaseRunes in app/tasks). */
export const MAX_TASK_GRANTS = 50
const MAX_BASE_CHARS = 512

/** What a grant lets the task's runs do, in words ("run `git`" as its parts: the verb, the base shown, its title). */
export function taskGrantWords(g: TaskGrant): { verb: string; shown: string } {
  switch (g.kind) {
    case 'shell':
      return { verb: 'run', shown: g.base }
    case 'mcp':
      return { verb: 'call the tool', shown: g.base }
    case 'web':
      return { verb: 'fetch pages of', shown: g.base }
    case 'file_read':
      return { verb: 'read files in', shown: tildePath(g.base) }
    case 'file_edit':
      return { verb: 'edit files in', shown: tildePath(g.base) }
    default:
      return { verb: g.kind, shown: g.base }
  }
}

/** Why a new grant would be refused (null: it may be sent), checked as the server would and by its kind's shape. */
export function checkTaskGrant(kind: TaskGrantKind, rawBase: string, existing: readonly TaskGrant[]): string | null {
  const base = rawBase.trim()
  if (base === '') return 'Say what it may use without asking.'
  if ([...base].length > MAX_BASE_CHARS) return `At most ${MAX_BASE_CHARS} characters.`
  if (/[\u0000\n\r]/.test(base)) return 'One line only.'
  switch (kind) {
    case 'shell':
      if (/\s/.test(base)) return 'A shell grant is one command name without spaces, like git (it covers all its arguments).'
      break
    case 'mcp':
      if (/\s/.test(base) || !/^[^.]+\..+$/.test(base)) return 'An MCP tool is server.tool, without spaces.'
      break
    case 'web':
      if (/[\s/]/.test(base)) return 'A site is its name alone, like example.com (no https://, no path).'
      break
    case 'file_read':
    case 'file_edit':
      if (!base.startsWith('/')) return 'A folder is an absolute path, like /home/you/project (one of your file roots).'
      break
  }
  if (existing.some((g) => g.kind === kind && g.base === base)) return 'This task has that grant already.'
  if (existing.length >= MAX_TASK_GRANTS) return `A task has at most ${MAX_TASK_GRANTS} grants.`
  return null
}
