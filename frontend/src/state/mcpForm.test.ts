import { describe, expect, it } from 'vitest'
import { httpServerExample, mcpServerExample } from '../api/mcp.test-util'
import { EMPTY_DRAFT, MASK, buildEdit, draftOf, nameProblem, toggleEdit, type McpDraft } from './mcpForm'

const draft = (over: Partial<McpDraft>): McpDraft => ({ ...EMPTY_DRAFT, ...over })

describe('buildEdit for a new server', () => {
  it('sends a command with its arguments one a line, its folder and its environment', () => {
    const result = buildEdit(
      draft({
        name: ' github ',
        command: ' npx ',
        args: '-y\n\n  @modelcontextprotocol/server-github  \r\n--verbose',
        cwd: ' /home/me ',
        env: 'GITHUB_TOKEN=ghp_123\n\nLOG = debug=1 ',
      }),
      null,
    )
    expect(result).toEqual({
      ok: true,
      name: 'github',
      edit: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github', '--verbose'],
        cwd: '/home/me',
        env: { GITHUB_TOKEN: 'ghp_123', LOG: 'debug=1' },
        disabled: false,
      },
    })
  })

  it('sends a URL with its headers, and nothing of a command', () => {
    const result = buildEdit(
      draft({ name: 'search', transport: 'http', command: 'ignored', env: 'A=1', url: ' https://search.example/mcp ', headers: 'Authorization: Bearer a:b\nX-Team:  core ' }),
      null,
    )
    expect(result).toEqual({
      ok: true,
      name: 'search',
      edit: { url: 'https://search.example/mcp', headers: { Authorization: 'Bearer a:b', 'X-Team': 'core' }, disabled: false },
    })
  })

  it('says which field is wrong and why', () => {
    const cases: [Partial<McpDraft>, string, RegExp][] = [
      [{ name: '  ', command: 'x' }, 'name', /name/],
      [{ name: 'a/b', command: 'x' }, 'name', /slash/],
      [{ name: 'a\u0007', command: 'x' }, 'name', /control/],
      [{ name: 'é'.repeat(33), command: 'x' }, 'name', /64 bytes/],
      [{ name: 's', command: ' ' }, 'command', /command/],
      [{ name: 's', command: 'x', env: 'JUST_A_KEY' }, 'env', /Line 1 of the environment: write KEY=value/],
      [{ name: 's', command: 'x', env: '\n=value' }, 'env', /Line 2/],
      [{ name: 's', command: 'x', env: 'MY KEY=1' }, 'env', /not a variable name/],
      [{ name: 's', command: 'x', env: 'A=1\nA=2' }, 'env', /A is in the environment twice/],
      [{ name: 's', command: 'x', env: `NEW=${MASK}` }, 'env', /Type a value for NEW/],
      [{ name: 's', transport: 'http', url: '' }, 'url', /URL/],
      [{ name: 's', transport: 'http', url: 'ftp://x/mcp' }, 'url', /http:\/\/ or https:\/\//],
      [{ name: 's', transport: 'http', url: 'not a url' }, 'url', /http/],
      [{ name: 's', transport: 'http', url: 'https://x', headers: 'Bad Name: v' }, 'headers', /not a header name/],
      [{ name: 's', transport: 'http', url: 'https://x', headers: 'no colon' }, 'headers', /write Name: value/],
    ]
    for (const [over, field, error] of cases) {
      const result = buildEdit(draft(over), null)
      expect(result.ok, JSON.stringify(over)).toBe(false)
      if (!result.ok) {
        expect(result.field, JSON.stringify(over)).toBe(field)
        expect(result.error).toMatch(error)
      }
    }
  })

  it('checks names by the server’s rules', () => {
    expect(nameProblem('github')).toBeNull()
    expect(nameProblem('my tools (work)')).toBeNull()
    expect(nameProblem('x'.repeat(64))).toBeNull()
    expect(nameProblem('x'.repeat(65))).not.toBeNull()
  })
})

describe('editing a saved server', () => {
  it('shows its values, and its secrets masked', () => {
    expect(draftOf(mcpServerExample)).toEqual({
      name: 'github',
      transport: 'stdio',
      command: 'npx',
      args: '-y\n@modelcontextprotocol/server-github',
      cwd: '/home/me',
      env: `GITHUB_TOKEN=${MASK}`,
      url: '',
      headers: '',
    })
    expect(draftOf(httpServerExample)).toMatchObject({ transport: 'http', url: 'https://search.example/mcp', headers: `Authorization: ${MASK}` })
  })

  it('keeps a masked secret (null), replaces a typed one, and leaves out a removed line', () => {
    const server = { ...mcpServerExample, config: { ...mcpServerExample.config, envKeys: ['GITHUB_TOKEN', 'OLD', 'ROTATED'], disabled: true } }
    const form = { ...draftOf(server), env: `GITHUB_TOKEN=${MASK}\nROTATED=new-value\nADDED=1` }
    expect(buildEdit(form, server)).toEqual({
      ok: true,
      name: 'github',
      edit: {
        command: 'npx',
        args: ['-y', '@modelcontextprotocol/server-github'],
        cwd: '/home/me',
        env: { GITHUB_TOKEN: null, ROTATED: 'new-value', ADDED: '1' },
        disabled: true,
      },
    })
    const http = buildEdit({ ...draftOf(httpServerExample), headers: `Authorization:${MASK}` }, httpServerExample)
    expect(http).toEqual({ ok: true, name: 'search', edit: { url: 'https://search.example/mcp', headers: { Authorization: null }, disabled: false } })
  })

  it('keeps the saved name whatever the name field says', () => {
    const result = buildEdit({ ...draftOf(mcpServerExample), name: 'renamed' }, mcpServerExample)
    expect(result.ok && result.name).toBe('github')
  })
})

describe('toggleEdit', () => {
  it('turns a server off or on and keeps every saved value', () => {
    expect(toggleEdit(mcpServerExample, true)).toEqual({
      command: 'npx',
      args: ['-y', '@modelcontextprotocol/server-github'],
      cwd: '/home/me',
      env: { GITHUB_TOKEN: null },
      disabled: true,
    })
    expect(toggleEdit(httpServerExample, false)).toEqual({ url: 'https://search.example/mcp', headers: { Authorization: null }, disabled: false })
  })
})
