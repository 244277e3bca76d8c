// Reading and feeding the page's McpStore from React: WispProvider provides
// the one store (its context never changes) and feeds it with useMcpFeed;
// the settings' Tools section reads it through useMcpServers.

import { createContext, useContext, useEffect, useSyncExternalStore } from 'react'
import type { ApiClient, McpServer, Unsubscribe } from '../api'
import { initialMcp, type McpState } from './mcp'
import type { McpStore } from './mcpStore'

export const McpStoreContext = createContext<McpStore | null>(null)

const noSubscription = () => () => undefined
const empty = () => initialMcp

/** The page's store (null outside WispProvider). */
export function useMcpStore(): McpStore | null {
  return useContext(McpStoreContext)
}

/** The servers; re-renders when they change. */
export function useMcpServers(): McpState {
  const store = useContext(McpStoreContext)
  return useSyncExternalStore(store?.subscribe ?? noSubscription, store?.getSnapshot ?? empty)
}

/**
 * Gives the store the API client, takes the /ws mcp-servers frames, and
 * reloads a list on screen after every (re)connect of /ws (frames sent while
 * it was down are not replayed). The first load is the Tools section's.
 */
export function useMcpFeed(
  store: McpStore,
  api: ApiClient | null,
  connected: boolean,
  onServers: (fn: (servers: McpServer[]) => void) => Unsubscribe,
): void {
  useEffect(() => store.setApi(api), [store, api])
  useEffect(() => onServers(store.receive), [store, onServers])
  useEffect(() => {
    if (api !== null && connected) void store.reload()
  }, [store, api, connected])
}
