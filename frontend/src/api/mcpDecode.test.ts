import { describe, expect, it } from 'vitest'
import { decodeServerMessage } from './decode'
import { decodeMcpServer, decodeMcpServerBody, decodeMcpServerList } from './mcpDecode'
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

  it('rejects what is not its shape (wire.gen.test.ts checks every field)', () => {
    for (const v of [null, [server], { ...server, status: 'sleeping' }, { ...server, tools: [tool, null] }]) {
      expect(decodeMcpServer(v), JSON.stringify(v)).toBeNull()
    }
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

describe('the mcp-servers /ws frame', () => {
  it('decodes the full list, and drops a malformed frame', () => {
    const frame = { type: 'mcp-servers', servers: [server, httpServerExample] }
    expect(decodeServerMessage(JSON.stringify(frame))).toEqual(frame)
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers', servers: [] }))).toEqual({ type: 'mcp-servers', servers: [] })
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers' }))).toBeNull()
    expect(decodeServerMessage(JSON.stringify({ type: 'mcp-servers', servers: [{ ...server, tools: null }] }))).toBeNull()
  })
})
