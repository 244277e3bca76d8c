// Settings › Tools in a (fake) document, on an McpStore whose API the test
// answers: the servers as they are (status, tools, health), their controls,
// and the Add and Edit forms with their secrets and the server's refusals.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type McpServer, type McpServerEdit, type McpServerSaved } from '../api'
import { httpServerExample, mcpServerExample } from '../api/mcp.test-util'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, selectOption, typeInto } from '../state/fakeEvents.test-util'
import { MASK } from '../state/mcpForm'
import type { McpApi, McpStore } from '../state/mcpStore'
import type { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

const github = mcpServerExample
const search = httpServerExample
/** A macrotask: the promises an action started have settled. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** The API the store calls, recorded; save answers as the test says. */
function fakeApi() {
  const calls: { what: string; name?: string; edit?: McpServerEdit }[] = []
  const api = {
    calls,
    servers: [github, search] as McpServer[],
    onSave: async (name: string): Promise<McpServerSaved> => ({ server: { ...github, name }, created: true }),
    onDelete: async (): Promise<void> => undefined,
  }
  const client: McpApi = {
    listMcpServers: async () => (calls.push({ what: 'list' }), api.servers),
    restartMcpServer: async (name) => (calls.push({ what: 'restart', name }), { ...github, status: 'starting' }),
    saveMcpServer: async (name, edit) => (calls.push({ what: 'save', name, edit }), api.onSave(name)),
    deleteMcpServer: async (name) => (calls.push({ what: 'delete', name }), api.onDelete()),
  }
  return { api, client }
}

describe('Settings › Tools', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let store: McpStore
  let page: WispPage
  let fake: ReturnType<typeof fakeApi>

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    root = createRoot(browser.container as unknown as Element)
    const { WispPage } = await import('../state/wispPage')
    fake = fakeApi()
    page = new WispPage()
    store = page.mcp
    store.setApi(fake.client)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
    vi.useRealTimers()
  })

  async function show(blocked = false): Promise<void> {
    const { McpServers } = await import('./McpServers')
    const { WispContext } = await import('../state/wispContext')
    await act(() => root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(McpServers, { blocked }))))
  }
  const act = (fn: () => void | Promise<void> = () => undefined) =>
    React.act(async () => {
      await fn()
      await turn()
    })
  const c = () => browser.container
  const all = (testId: string, within: FakeElement = c()) => within.byTestId(testId)
  const one = (testId: string, within: FakeElement = c()): FakeElement => {
    const found = all(testId, within)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }
  const server = (name: string): FakeElement => {
    const el = all('mcp-server').find((s) => s.getAttribute('data-name') === name)
    if (el === undefined) throw new Error(`no server ${name}`)
    return el
  }
  const press = (el: FakeElement) => act(() => click(c(), el))
  const type = (testId: string, text: string) => act(() => typeInto(c(), one(testId), text))
  const saves = () => fake.api.calls.filter((x) => x.what === 'save')

  it('loads the servers when it opens and shows each: status, transport, tools, health', async () => {
    await show()
    expect(fake.api.calls).toEqual([{ what: 'list' }])
    expect(one('mcp-servers').getAttribute('data-testid')).toBe('mcp-servers')
    expect(all('mcp-server').map((s) => s.getAttribute('data-name'))).toEqual(['github', 'search'])

    const gh = server('github')
    expect(one('mcp-status', gh).getAttribute('data-status')).toBe('running')
    expect(one('mcp-transport', gh).textContent).toBe('stdio')
    expect(gh.textContent).toContain('npx -y @modelcontextprotocol/server-github')
    expect(all('mcp-tool', gh).map((t) => t.getAttribute('data-action'))).toEqual(['github__create_issue', 'github__list_issues'])
    const create = all('mcp-tool', gh)[0]!
    expect(create.textContent).toContain('create_issue')
    expect(create.textContent).toContain('Create an issue')
    expect(create.textContent).toContain('Opens a new issue in a repository.')
    expect(all('mcp-annotation', create).map((b) => b.textContent)).toEqual(['open world'])
    expect(all('mcp-last-error', gh)).toHaveLength(0)
    expect(all('mcp-restarts', gh)).toHaveLength(0)
    // The stderr tail, folded.
    const stderr = one('mcp-stderr', gh)
    expect(stderr.tagName).toBe('DETAILS')
    expect(stderr.hasAttribute('open')).toBe(false)
    expect(stderr.textContent).toContain('GitHub MCP Server running on stdio')

    const s = server('search')
    expect(one('mcp-status', s).getAttribute('data-status')).toBe('failed')
    expect(one('mcp-transport', s).textContent).toBe('http')
    expect(s.textContent).toContain('https://search.example/mcp')
    expect(one('mcp-last-error', s).textContent).toBe('initialize: 401 Unauthorized')
    expect(one('mcp-restarts', s).textContent).toBe('Restarted 3 times')
    expect(all('mcp-retry', s)).toHaveLength(1)
    expect(all('mcp-tool', s)).toHaveLength(0)
    expect(one('mcp-toggle', s).textContent).toBe('Disable')
  })

  it('follows the store: a frame replaces the list', async () => {
    await show()
    await act(() => store.receive([{ ...search, status: 'running', lastError: '', tools: github.tools.slice(1) }]))
    expect(all('mcp-server').map((s) => s.getAttribute('data-name'))).toEqual(['search'])
    expect(one('mcp-status').getAttribute('data-status')).toBe('running')
    expect(all('mcp-last-error')).toHaveLength(0)
    expect(all('mcp-tool').map((t) => t.getAttribute('data-action'))).toEqual(['github__list_issues'])
    await act(() => store.receive([]))
    expect(one('mcp-empty').textContent).toContain('No MCP servers')
  })

  it('restarts a server', async () => {
    await show()
    await press(one('mcp-restart', server('github')))
    expect(fake.api.calls.at(-1)).toEqual({ what: 'restart', name: 'github' })
    expect(one('mcp-status', server('github')).getAttribute('data-status')).toBe('starting')
  })

  it('disables and enables a server, keeping its saved values', async () => {
    fake.api.servers = [{ ...github, status: 'disabled', config: { ...github.config, disabled: true } }, search]
    await show()
    const gh = server('github')
    expect(one('mcp-toggle', gh).textContent).toBe('Enable')
    expect(one('mcp-restart', gh).hasAttribute('disabled')).toBe(true)
    await press(one('mcp-toggle', gh))
    await press(one('mcp-toggle', server('search')))
    expect(saves()).toEqual([
      {
        what: 'save',
        name: 'github',
        edit: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], cwd: '/home/me', env: { GITHUB_TOKEN: null }, disabled: false },
      },
      { what: 'save', name: 'search', edit: { url: 'https://search.example/mcp', headers: { Authorization: null }, disabled: true } },
    ])
  })

  it('removes a server only after a confirm', async () => {
    await show()
    await press(one('mcp-remove', server('github')))
    expect(fake.api.calls.some((x) => x.what === 'delete')).toBe(false)
    await press(one('mcp-remove-cancel'))
    expect(all('mcp-remove-confirm')).toHaveLength(0)
    await press(one('mcp-remove', server('github')))
    await press(one('mcp-remove-confirm'))
    expect(fake.api.calls.at(-1)).toEqual({ what: 'delete', name: 'github' })
    expect(all('mcp-server').map((s) => s.getAttribute('data-name'))).toEqual(['search'])
  })

  it('shows why an action failed', async () => {
    fake.api.onDelete = async () => {
      throw new ApiError(409, 'the config file has an error')
    }
    await show()
    await press(one('mcp-remove', server('search')))
    await press(one('mcp-remove-confirm'))
    expect(one('mcp-action-error', server('search')).textContent).toBe('the config file has an error')
  })

  it('adds a stdio server from the form, lines parsed', async () => {
    await show()
    await press(one('mcp-add'))
    expect(all('mcp-add')).toHaveLength(0)
    await type('mcp-form-name', 'files')
    await type('mcp-form-command', 'npx')
    await type('mcp-form-args', '-y\n@modelcontextprotocol/server-filesystem\n/home/me/docs')
    await type('mcp-form-cwd', '/home/me')
    await type('mcp-form-env', 'LOG_LEVEL=debug\nTOKEN=abc=def')
    await press(one('mcp-form-save'))
    expect(saves()).toEqual([
      {
        what: 'save',
        name: 'files',
        edit: {
          command: 'npx',
          args: ['-y', '@modelcontextprotocol/server-filesystem', '/home/me/docs'],
          cwd: '/home/me',
          env: { LOG_LEVEL: 'debug', TOKEN: 'abc=def' },
          disabled: false,
        },
      },
    ])
    expect(all('mcp-form')).toHaveLength(0)
    expect(all('mcp-server').map((s) => s.getAttribute('data-name'))).toEqual(['files', 'github', 'search'])
  })

  it('adds an http server; Enter in a field saves it', async () => {
    await show()
    await press(one('mcp-add'))
    await act(() => selectOption(c(), one('mcp-form-transport'), 'http'))
    expect(all('mcp-form-command')).toHaveLength(0)
    await type('mcp-form-name', 'remote')
    await type('mcp-form-url', 'https://mcp.example/mcp')
    await type('mcp-form-headers', 'Authorization: Bearer t0k')
    await act(() => keyDown(c(), one('mcp-form-url'), 'Enter'))
    expect(saves()[0]).toEqual({
      what: 'save',
      name: 'remote',
      edit: { url: 'https://mcp.example/mcp', headers: { Authorization: 'Bearer t0k' }, disabled: false },
    })
  })

  it("shows the form's own problems and the server's refusal inline, and keeps the form", async () => {
    fake.api.onSave = async () => {
      throw new ApiError(400, 'MCP server a b: give a command or a url, not both')
    }
    await show()
    await press(one('mcp-add'))
    await press(one('mcp-form-save'))
    expect(one('mcp-form-error').textContent).toBe('Give the server a name.')
    expect(one('mcp-form-name').getAttribute('aria-invalid')).toBe('true')
    await type('mcp-form-name', 'a b')
    await type('mcp-form-command', 'run')
    await type('mcp-form-env', 'NOT A PAIR')
    await press(one('mcp-form-save'))
    expect(one('mcp-form-error').textContent).toBe('Line 1 of the environment: write KEY=value.')
    expect(saves()).toHaveLength(0)
    await type('mcp-form-env', '')
    await press(one('mcp-form-save'))
    expect(saves()).toHaveLength(1)
    expect(one('mcp-form-error').textContent).toBe('MCP server a b: give a command or a url, not both')
    expect(one('mcp-form-save').hasAttribute('disabled')).toBe(false)
    await press(one('mcp-form-cancel'))
    expect(all('mcp-form')).toHaveLength(0)
    expect(all('mcp-add')).toHaveLength(1)
  })

  it('edits a server: its secrets masked and kept, a typed one replaced, a removed one left out', async () => {
    fake.api.servers = [{ ...github, config: { ...github.config, envKeys: ['GITHUB_TOKEN', 'OLD'] } }]
    fake.api.onSave = async (name) => ({ server: { ...github, name }, created: false })
    await show()
    await press(one('mcp-edit', server('github')))
    const form = one('mcp-form', server('github'))
    expect(one('mcp-form-name', form).value).toBe('github')
    expect(one('mcp-form-name', form).hasAttribute('disabled')).toBe(true)
    expect(one('mcp-form-command', form).value).toBe('npx')
    expect(one('mcp-form-args', form).value).toBe('-y\n@modelcontextprotocol/server-github')
    expect(one('mcp-form-env', form).value).toBe(`GITHUB_TOKEN=${MASK}\nOLD=${MASK}`)
    expect(all('mcp-form-secrets', form)).toHaveLength(1)
    await type('mcp-form-env', `GITHUB_TOKEN=${MASK}\nNEW=1`)
    await press(one('mcp-form-save'))
    expect(saves()).toEqual([
      {
        what: 'save',
        name: 'github',
        edit: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-github'], cwd: '/home/me', env: { GITHUB_TOKEN: null, NEW: '1' }, disabled: false },
      },
    ])
    expect(all('mcp-form')).toHaveLength(0)
  })

  it('closes the form of a server removed meanwhile', async () => {
    await show()
    await press(one('mcp-edit', server('github')))
    expect(all('mcp-form')).toHaveLength(1)
    await act(() => store.receive([search]))
    expect(all('mcp-form')).toHaveLength(0)
    await act(() => store.receive([github, search]))
    expect(all('mcp-form')).toHaveLength(0)
    expect(all('mcp-edit', server('github'))).toHaveLength(1)
  })

  it('waits with every change while the config file has an error, but can restart', async () => {
    await show(true)
    const gh = server('github')
    for (const id of ['mcp-toggle', 'mcp-edit', 'mcp-remove']) expect(one(id, gh).hasAttribute('disabled'), id).toBe(true)
    expect(one('mcp-add').hasAttribute('disabled')).toBe(true)
    expect(one('mcp-restart', gh).hasAttribute('disabled')).toBe(false)
  })

  it('shows why the list could not be loaded, with a way to try again', async () => {
    const { client } = fake
    let failing = true
    store.setApi({
      ...client,
      listMcpServers: async () => {
        if (failing) throw new ApiError(0, 'cannot reach the Wisp server')
        return client.listMcpServers()
      },
    })
    await show()
    const error = one('mcp-load-error')
    expect(error.textContent).toContain('cannot reach the Wisp server')
    failing = false
    await press(error.findAll((e) => e.tagName === 'BUTTON')[0]!)
    expect(all('mcp-load-error')).toHaveLength(0)
    expect(all('mcp-server')).toHaveLength(2)
  })
})
