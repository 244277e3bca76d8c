// Reading the page's MemoryStore (memoryStore.ts) from components: Settings →
// Memory loads it when shown.

import type { MemoryState, MemoryStore } from './memoryStore'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The page's store. */
export function useMemoryStore(): MemoryStore {
  return useWisp().memory
}

/** The memory editor's state; re-renders when it changes. */
export function useMemory(): MemoryState {
  return useStore(useWisp().memory)
}
