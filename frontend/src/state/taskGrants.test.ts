// A task's own grants in words, and the checks made before they are sent.

import { describe, expect, it } from 'vitest'
import { checkTaskGrant, MAX_TASK_GRANTS, taskGrantWords } from './taskGrants'

describe('taskGrantWords', () => {
  it('says what each kind lets the runs do, folders with ~', () => {
    expect(taskGrantWords({ kind: 'shell', base: 'git' })).toEqual({ verb: 'run', shown: 'git' })
    expect(taskGrantWords({ kind: 'mcp', base: 'fs.read' })).toEqual({ verb: 'call the tool', shown: 'fs.read' })
    expect(taskGrantWords({ kind: 'web', base: 'example.com' })).toEqual({ verb: 'fetch pages of', shown: 'example.com' })
    expect(taskGrantWords({ kind: 'file_read', base: '/home/ada/project' })).toEqual({ verb: 'read files in', shown: '~/project' })
    expect(taskGrantWords({ kind: 'file_edit', base: '/srv/notes' })).toEqual({ verb: 'edit files in', shown: '/srv/notes' })
  })
})

describe('checkTaskGrant', () => {
  it('accepts a base of the kind’s shape, trimmed', () => {
    expect(checkTaskGrant('shell', ' git ', [])).toBeNull()
    expect(checkTaskGrant('mcp', 'fs.read_file', [])).toBeNull()
    expect(checkTaskGrant('web', 'example.com', [])).toBeNull()
    expect(checkTaskGrant('web', '::1', [])).toBeNull()
    expect(checkTaskGrant('file_read', '/home/ada/project', [])).toBeNull()
    expect(checkTaskGrant('file_edit', '/home/ada/project', [])).toBeNull()
  })

  it('refuses what the server would, and bases not of their kind’s shape', () => {
    expect(checkTaskGrant('shell', '   ', [])).toBe('Say what it may use without asking.')
    expect(checkTaskGrant('web', 'a'.repeat(513), [])).toBe('At most 512 characters.')
    expect(checkTaskGrant('shell', 'git status', [])).toMatch(/^A shell grant is one command name without spaces/)
    expect(checkTaskGrant('mcp', 'fs', [])).toMatch(/^An MCP tool is server\.tool/)
    expect(checkTaskGrant('web', 'https://example.com/a', [])).toMatch(/^A site is its name alone/)
    expect(checkTaskGrant('file_read', '~/project', [])).toMatch(/^A folder is an absolute path/)
    expect(checkTaskGrant('file_edit', 'project', [])).toMatch(/^A folder is an absolute path/)
  })

  it('refuses a grant the task has, and one more than the cap', () => {
    expect(checkTaskGrant('shell', 'ls', [{ kind: 'shell', base: 'ls' }])).toBe('This task has that grant already.')
    expect(checkTaskGrant('web', 'ls', [{ kind: 'shell', base: 'ls' }])).toBeNull()
    const full = Array.from({ length: MAX_TASK_GRANTS }, (_, i) => ({ kind: 'shell' as const, base: `c${i}` }))
    expect(checkTaskGrant('shell', 'git', full)).toBe(`A task has at most ${MAX_TASK_GRANTS} grants.`)
  })
})
