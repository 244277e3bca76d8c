// The page's MCP servers, a Store (store.ts; one instance per page, created by
// WispProvider, read by components through useMcpServers.ts): loaded by
// GET /api/mcp/servers when the settings open (and again after a reconnect
// of /ws once shown), replaced whole by every mcp-servers frame; it restarts,
// saves and removes servers.
//
// Every request and frame takes a number; an answer is applied only when
// nothing newer came meanwhile, so a list fetched before a frame (or a
// "starting" from a restart answered after the frame that says "running")
// never replaces what the frame said.

import { ApiError, type ApiClient, type McpServer, type McpServerEdit, type McpServerSaved } from '../api'
import { initialMcp, serverRemoved, serversFailed, serversLoaded, serverUpdated, type McpState } from './mcp'
import { Store } from './store'

export type McpApi = Pick<ApiClient, 'listMcpServers' | 'restartMcpServer' | 'saveMcpServer' | 'deleteMcpServer'>

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export class McpStore extends Store<McpState> {
  private api: McpApi | null = null
  /** The number of the newest request or frame. */
  private newest = 0

  constructor() {
    super(initialMcp)
  }

  setApi(api: McpApi | null): void {
    this.api = api
  }

  /** An mcp-servers frame: the whole list, newer than anything in flight. */
  readonly receive = (servers: readonly McpServer[]): void => {
    this.newest++
    this.set(serversLoaded(servers))
  }

  async load(): Promise<void> {
    const api = this.api
    if (api === null) return
    const n = ++this.newest
    try {
      const servers = await api.listMcpServers()
      if (n === this.newest) this.set(serversLoaded(servers))
    } catch (err) {
      if (n === this.newest) this.set((s) => serversFailed(s, `Cannot load the MCP servers: ${errorText(err)}`))
    }
  }

  /** Loads the list again when one is shown (after /ws reconnected: frames sent meanwhile are lost). */
  async reload(): Promise<void> {
    if (this.get().servers !== null) await this.load()
  }

  /** Restarts a server. Rejects with ApiError (404: no such server). */
  async restart(name: string): Promise<void> {
    const api = this.client()
    const n = ++this.newest
    const server = await api.restartMcpServer(name)
    if (n === this.newest) this.set((s) => serverUpdated(s, server))
  }

  /** Adds or replaces a server. Rejects with ApiError (400: the server's reason, for the form to show). */
  async save(name: string, edit: McpServerEdit): Promise<McpServerSaved> {
    const api = this.client()
    const n = ++this.newest
    const saved = await api.saveMcpServer(name, edit)
    if (n === this.newest) this.set((s) => serverUpdated(s, saved.server))
    return saved
  }

  /** Removes a server; one already gone counts as removed. Rejects with ApiError otherwise. */
  async remove(name: string): Promise<void> {
    const api = this.client()
    try {
      await api.deleteMcpServer(name)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err
    }
    this.newest++ // a list fetched before the delete would bring it back
    this.set((s) => serverRemoved(s, name))
  }

  private client(): McpApi {
    if (this.api === null) throw new ApiError(0, 'not connected to the Wisp server')
    return this.api
  }
}
