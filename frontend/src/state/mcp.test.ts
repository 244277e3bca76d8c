import { describe, expect, it, vi } from 'vitest'
import { ApiError, type McpServer, type McpServerSaved } from '../api'
import { httpServerExample, mcpServerExample } from '../api/mcp.test-util'
import { annotationBadges, initialMcp, serverRemoved, serversLoaded, serverUpdated } from './mcp'
import { McpStore, type McpApi } from './mcpStore'

const github = mcpServerExample
const search = httpServerExample
const names = (store: McpStore) => store.get().servers?.map((s) => `${s.name}:${s.status}`) ?? null

/** A promise the test settles. */
function deferred<T>() {
  let resolve: (v: T) => void = () => undefined
  let reject: (e: unknown) => void = () => undefined
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

function fakeApi(over: Partial<McpApi> = {}): McpApi & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    listMcpServers: over.listMcpServers ?? (async () => (calls.push('list'), [search, github])),
    restartMcpServer:
      over.restartMcpServer ?? (async (name) => (calls.push(`restart ${name}`), { ...github, name, status: 'starting' })),
    saveMcpServer: over.saveMcpServer ?? (async (name) => (calls.push(`save ${name}`), { server: { ...github, name }, created: true })),
    deleteMcpServer: over.deleteMcpServer ?? (async (name) => void calls.push(`delete ${name}`)),
  }
}

function storeWith(api: McpApi | null): McpStore {
  const store = new McpStore()
  store.setApi(api)
  return store
}

describe('the MCP servers state', () => {
  it('keeps the servers by name, replaces one by name and removes one', () => {
    let s = serversLoaded([search, github])
    expect(s.servers?.map((x) => x.name)).toEqual(['github', 'search'])
    s = serverUpdated(s, { ...github, status: 'failed' })
    expect(s.servers?.map((x) => `${x.name}:${x.status}`)).toEqual(['github:failed', 'search:failed'])
    s = serverUpdated(s, { ...github, name: 'alpha' })
    expect(s.servers?.map((x) => x.name)).toEqual(['alpha', 'github', 'search'])
    s = serverRemoved(s, 'github')
    expect(s.servers?.map((x) => x.name)).toEqual(['alpha', 'search'])
    expect(serverRemoved(s, 'nope')).toBe(s)
    expect(serverRemoved(initialMcp, 'x')).toBe(initialMcp)
    expect(serverUpdated(initialMcp, github).servers).toEqual([github])
  })

  it('badges only the hints a server set to true', () => {
    expect(annotationBadges(null)).toEqual([])
    expect(annotationBadges({ title: 'x', destructiveHint: false })).toEqual([])
    expect(
      annotationBadges({ readOnlyHint: true, destructiveHint: true, idempotentHint: true, openWorldHint: true }).map((b) => b.label),
    ).toEqual(['read-only', 'destructive', 'idempotent', 'open world'])
  })
})

describe('McpStore', () => {
  it('loads the list and tells its subscribers', async () => {
    const store = storeWith(fakeApi())
    const seen = vi.fn()
    store.subscribe(seen)
    expect(names(store)).toBeNull()
    await store.load()
    expect(names(store)).toEqual(['github:running', 'search:failed'])
    expect(seen).toHaveBeenCalledTimes(1)
  })

  it('takes every frame whole, and a list fetched before a frame never replaces it', async () => {
    const answer = deferred<McpServer[]>()
    const store = storeWith(fakeApi({ listMcpServers: () => answer.promise }))
    const loading = store.load()
    store.receive([{ ...github, status: 'starting' }])
    answer.resolve([github, search])
    await loading
    expect(names(store)).toEqual(['github:starting'])
    store.receive([])
    expect(names(store)).toEqual([])
  })

  it('shows why the list could not be loaded, until a list comes', async () => {
    const store = storeWith(
      fakeApi({
        listMcpServers: async () => {
          throw new ApiError(0, 'cannot reach the Wisp server')
        },
      }),
    )
    await store.load()
    expect(store.get()).toEqual({ servers: null, loadError: 'Cannot load the MCP servers: cannot reach the Wisp server' })
    store.receive([github])
    expect(store.get().loadError).toBeNull()
  })

  it('reloads after a reconnect only a list it has', async () => {
    const api = fakeApi()
    const store = storeWith(api)
    await store.reload()
    expect(api.calls).toEqual([])
    await store.load()
    await store.reload()
    expect(api.calls).toEqual(['list', 'list'])
  })

  it("takes a restart's answer unless a frame said something newer meanwhile", async () => {
    const store = storeWith(fakeApi())
    store.receive([github])
    await store.restart('github')
    expect(names(store)).toEqual(['github:starting'])

    const answer = deferred<McpServer>()
    const slow = storeWith(fakeApi({ restartMcpServer: () => answer.promise }))
    slow.receive([github])
    const restarting = slow.restart('github')
    slow.receive([{ ...github, status: 'running', restarts: 1 }])
    answer.resolve({ ...github, status: 'starting' })
    await restarting
    expect(names(slow)).toEqual(['github:running'])
  })

  it('adds a saved server, and passes a refusal on for the form', async () => {
    const store = storeWith(fakeApi())
    store.receive([search])
    await expect(store.save('github', { command: 'npx' })).resolves.toMatchObject({ created: true })
    expect(names(store)).toEqual(['github:running', 'search:failed'])

    const refusing = storeWith(
      fakeApi({
        saveMcpServer: async (): Promise<McpServerSaved> => {
          throw new ApiError(400, 'MCP server x: give a command or a url, not both')
        },
      }),
    )
    await expect(refusing.save('x', {})).rejects.toThrow('give a command or a url, not both')
  })

  it('removes a server; one already gone counts as removed, other failures reject', async () => {
    let failure: ApiError | null = new ApiError(404, 'no such MCP server')
    const store = storeWith(
      fakeApi({
        deleteMcpServer: async () => {
          if (failure !== null) throw failure
        },
      }),
    )
    store.receive([github, search])
    await store.remove('github')
    expect(names(store)).toEqual(['search:failed'])
    failure = new ApiError(409, 'the config file has an error')
    await expect(store.remove('search')).rejects.toThrow('the config file has an error')
    expect(names(store)).toEqual(['search:failed'])
  })

  it('drops a list fetched before a delete', async () => {
    const answer = deferred<McpServer[]>()
    const store = storeWith(fakeApi({ listMcpServers: () => answer.promise }))
    store.receive([github, search])
    const loading = store.load()
    await store.remove('github')
    answer.resolve([github, search])
    await loading
    expect(names(store)).toEqual(['search:failed'])
  })

  it('rejects actions without an API client', async () => {
    const store = storeWith(null)
    await store.load()
    expect(names(store)).toBeNull()
    await expect(store.restart('github')).rejects.toBeInstanceOf(ApiError)
    await expect(store.save('github', {})).rejects.toBeInstanceOf(ApiError)
    await expect(store.remove('github')).rejects.toBeInstanceOf(ApiError)
  })
})
