// Wire types of the memory (docs/memory.md): the Markdown document per
// character that every turn's system prompt carries, its versions, and the
// /ws frame of a change. Generated from the Go types of app/wire/memory.go
// (PENDING issue 30: pending30Mem.ts until the backend is merged). Decoders
// live in memoryDecode.ts; the requests in restMemory.ts.

import type { Memory, MemoryUpdated } from './pending30Mem'

export type { Memory, MemoryHistory, MemoryVersion } from './pending30Mem'

/**
 * The answer to PUT /api/memory: saved (the memory as it is now), or refused
 * because it changed elsewhere since baseVersion (409): nothing was written.
 */
export type MemorySaveResult = { ok: true; memory: Memory } | { ok: false; error: string }

/** /ws: the memory changed (here, in another window, by the agent, by an undo). */
export type MemoryUpdatedMessage = MemoryUpdated

/** Where a version came from. */
export type MemorySource = 'user' | 'agent' | 'undo'
