import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'
import { httpServerExample, mcpServerExample as server } from './mcp.test-util'

const client = (respond: Parameters<typeof fakeFetch>[0]) => {
  const { fetch, calls } = fakeFetch(respond)
  return { api: new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }), calls }
}

const rejection = async (p: Promise<unknown>): Promise<ApiError> => {
  const err = await p.catch((e: unknown) => e)
  expect(err).toBeInstanceOf(ApiError)
  return err as ApiError
}

describe('ApiClient MCP servers', () => {
  it('lists the servers', async () => {
    const { api, calls } = client(() => json(200, { servers: [server, httpServerExample] }))
    await expect(api.listMcpServers()).resolves.toEqual([server, httpServerExample])
    expect(calls[0]).toMatchObject({ url: 'http://h/api/mcp/servers', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('restarts a server by its escaped name (202) and gives it back', async () => {
    const starting = { ...server, name: 'my tools/1', status: 'starting' }
    const { api, calls } = client(() => json(202, { server: starting }))
    await expect(api.restartMcpServer('my tools/1')).resolves.toEqual(starting)
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['POST http://h/api/mcp/servers/my%20tools%2F1/restart'])
  })

  it('puts an edit, and says whether it created the server (201) or replaced it (200)', async () => {
    const edit = { command: 'npx', args: ['-y', 'pkg'], cwd: '', env: { GITHUB_TOKEN: null, NEW: 'v' }, disabled: false }
    let status = 201
    const { api, calls } = client(() => json(status, { server }))
    await expect(api.saveMcpServer('github', edit)).resolves.toEqual({ server, created: true })
    status = 200
    await expect(api.saveMcpServer('github', { url: 'https://x/mcp', headers: { Authorization: null } })).resolves.toEqual({
      server,
      created: false,
    })
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['PUT', 'http://h/api/mcp/servers/github', edit],
      ['PUT', 'http://h/api/mcp/servers/github', { url: 'https://x/mcp', headers: { Authorization: null } }],
    ])
    expect(calls[0]?.headers['Content-Type']).toBe('application/json')
  })

  it("throws the server's message for a refused edit", async () => {
    const { api } = client(() => json(400, { error: 'MCP server x: give a command or a url, not both' }))
    const err = await rejection(api.saveMcpServer('x', { command: 'a', url: 'https://b' }))
    expect(err.status).toBe(400)
    expect(err.message).toBe('MCP server x: give a command or a url, not both')
  })

  it('deletes a server (204, no body), and rejects an unknown one with 404', async () => {
    const { api, calls } = client((c) => (c.url.endsWith('/gone') ? json(404, { error: 'no such MCP server' }) : new Response(null, { status: 204 })))
    await expect(api.deleteMcpServer('github')).resolves.toBeUndefined()
    const err = await rejection(api.deleteMcpServer('gone'))
    expect(err.status).toBe(404)
    expect(err.message).toBe('no such MCP server')
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['DELETE http://h/api/mcp/servers/github', 'DELETE http://h/api/mcp/servers/gone'])
  })

  it('rejects malformed answers and refusals with ApiError', async () => {
    for (const [call, status, body, message] of [
      ['list', 200, { servers: [{ ...server, status: 'sleeping' }] }, 'malformed MCP servers response'],
      ['list', 200, { server }, 'malformed MCP servers response'],
      ['restart', 202, { servers: [server] }, 'malformed MCP server response'],
      ['restart', 404, { error: 'no such MCP server' }, 'no such MCP server'],
      ['save', 200, { server: { ...server, tools: 'none' } }, 'malformed MCP server response'],
      ['save', 409, { error: 'the config file has an error' }, 'the config file has an error'],
    ] as const) {
      const { api } = client(() => json(status, body))
      const p = call === 'list' ? api.listMcpServers() : call === 'restart' ? api.restartMcpServer('github') : api.saveMcpServer('github', {})
      const err = await rejection(p)
      expect(err.message, message).toBe(message)
      // A malformed body is reported like the client's other decoders do: status 200.
      expect(err.status).toBe(message.startsWith('malformed') ? 200 : status)
    }
  })

  it('reports an unreachable server as ApiError 0', async () => {
    const { api } = client(() => Promise.reject(new TypeError('fetch failed')))
    expect((await rejection(api.listMcpServers())).status).toBe(0)
  })
})
