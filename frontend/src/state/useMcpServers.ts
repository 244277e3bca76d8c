// Reading the page's McpStore from components (WispProvider feeds it; the
// settings' Tools section loads it when shown).

import type { McpState } from './mcp'
import type { McpStore } from './mcpStore'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The page's store. */
export function useMcpStore(): McpStore {
  return useWisp().mcp
}

/** The servers; re-renders when they change. */
export function useMcpServers(): McpState {
  return useStore(useWisp().mcp)
}
