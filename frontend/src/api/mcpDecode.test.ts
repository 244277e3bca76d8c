import { describe, expect, it } from 'vitest'
import { decodeServerMessage } from './decode'
import {
  decodeMcpAnnotations,
  decodeMcpServer,
  decodeMcpServerBody,
  decodeMcpServerList,
  decodeMcpTool,
} from './mcpDecode'
import { httpServerExample, mcpServerExample } from './mcp.test-util'

const server = mcpServerExample
const tool = mcpServerExample.tools[0]!

describe('decodeMcpServer', () => {
  it('decodes the contract shape whole, stdio and http', () => {
    expect(decodeMcpServer(server)).toEqual(server)
    expect(decodeMcpServer(httpServerExample)).toEqual(httpServerExample)
    for (const status of ['starting', 'running', 'failed', 'disabled']) {
      expect(decodeMcpServer({ ...server, status })?.status).toBe(status)
    }
  })

  it('fills the fields a server may leave out', () => {
    const { lastError: _e, stderr: _s, restarts: _r, retryAt: _t, ...bare } = server
    expect(decodeMcpServer(bare)).toEqual({ ...server, lastError: '', stderr: [], restarts: 0, retryAt: null })
    const config = { transport: 'http', url: 'https://x/mcp' }
    expect(decodeMcpServer({ ...server, config })?.config).toEqual({
      transport: 'http',
      command: '',
      args: [],
      cwd: '',
      url: 'https://x/mcp',
      envKeys: [],
      headerKeys: [],
      disabled: false,
    })
  })

  it('rejects hostile or malformed input', () => {
    const bad: unknown[] = [
      null,
      'github',
      [server],
      { ...server, name: '' },
      { ...server, name: 7 },
      { ...server, status: 'sleeping' },
      { ...server, status: undefined },
      { ...server, since: 1764032400000 },
      { ...server, since: undefined },
      { ...server, config: undefined },
      { ...server, config: 'npx' },
      { ...server, config: { ...server.config, transport: 'sse' } },
      { ...server, config: { ...server.config, transport: undefined } },
      { ...server, config: { ...server.config, args: '-y' } },
      { ...server, config: { ...server.config, args: ['-y', 2] } },
      { ...server, config: { ...server.config, envKeys: { GITHUB_TOKEN: 'secret' } } },
      { ...server, config: { ...server.config, headerKeys: null } },
      { ...server, config: { ...server.config, disabled: 'no' } },
      { ...server, config: { ...server.config, command: ['npx'] } },
      { ...server, config: { ...server.config, cwd: 0 } },
      { ...server, config: { ...server.config, url: null } },
      { ...server, tools: undefined },
      { ...server, tools: {} },
      { ...server, tools: [tool, null] },
      { ...server, lastError: null },
      { ...server, stderr: 'boom' },
      { ...server, stderr: ['ok', 3] },
      { ...server, restarts: -1 },
      { ...server, restarts: 1.5 },
      { ...server, restarts: '2' },
      { ...server, retryAt: 5 },
    ]
    for (const v of bad) expect(decodeMcpServer(v), JSON.stringify(v)).toBeNull()
  })

  it('decodes lists and bodies as a whole or not at all', () => {
    expect(decodeMcpServerList({ servers: [server, httpServerExample] })).toEqual([server, httpServerExample])
    expect(decodeMcpServerList({ servers: [] })).toEqual([])
    expect(decodeMcpServerList({ servers: [server, { ...server, status: 'odd' }] })).toBeNull()
    expect(decodeMcpServerList({ servers: server })).toBeNull()
    expect(decodeMcpServerList([server])).toBeNull()
    expect(decodeMcpServerList({})).toBeNull()
    expect(decodeMcpServerBody({ server })).toEqual(server)
    expect(decodeMcpServerBody(server)).toBeNull()
  })
})

describe('decodeMcpTool', () => {
  it('decodes a tool whole, and fills what it may leave out', () => {
    expect(decodeMcpTool(tool)).toEqual(tool)
    expect(decodeMcpTool({ name: 'x', action: 's__x' })).toEqual({
      name: 'x',
      action: 's__x',
      title: '',
      description: '',
      inputSchema: {},
      annotations: null,
    })
  })

  it('rejects malformed tools', () => {
    const bad: unknown[] = [
      null,
      { ...tool, name: '' },
      { ...tool, action: undefined },
      { ...tool, title: 3 },
      { ...tool, description: ['a'] },
      { ...tool, annotations: 'read-only' },
      { ...tool, annotations: { readOnlyHint: 'yes' } },
      { ...tool, annotations: { title: false } },
    ]
    for (const v of bad) expect(decodeMcpTool(v), JSON.stringify(v)).toBeNull()
  })
})

describe('decodeMcpAnnotations', () => {
  it('keeps only the fields present, each of its type', () => {
    const all = { title: 'T', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false }
    expect(decodeMcpAnnotations(all)).toEqual(all)
    expect(decodeMcpAnnotations({})).toEqual({})
    expect(decodeMcpAnnotations({ readOnlyHint: true, somethingNew: 1 })).toEqual({ readOnlyHint: true })
    expect(decodeMcpAnnotations({ destructiveHint: 1 })).toBeNull()
    expect(decodeMcpAnnotations([])).toBeNull()
  })
})

describe('the mcp-servers /ws frame', () => {
  it('decodes the full list, and drops a malformed frame', () => {
    const frame = { type: 'mcp-servers', servers: [server, httpServerExample] }
    expect(decodeServerMessage(JSON.stringify(frame))).toEqual(frame)
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers', servers: [] }))).toEqual({ type: 'mcp-servers', servers: [] })
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers' }))).toBeNull()
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers', servers: [{ ...server, tools: null }] }))).toBeNull()
  })
})
