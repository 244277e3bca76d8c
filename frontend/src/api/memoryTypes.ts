// Wire types of the memory (docs/memory.md): the Markdown document per
// character that every turn's system prompt carries, its versions, and the
// /ws frame of a change, generated from the Go types of app/wire/memory.go
// (wire.gen.ts). Decoders live in memoryDecode.ts; the requests in
// restMemory.ts.

import type { Memory, MemoryUpdated } from './wire.gen'

export type { Memory, MemoryHistory, MemoryVersion } from './wire.gen'

/**
 * The answer to PUT /api/memory: saved (the memory as it is now), or refused
 * because it changed elsewhere since baseVersion (409): nothing was written.
 */
export type MemorySaveResult = { ok: true; memory: Memory } | { ok: false; error: string }

/** /ws: the memory changed (here, in another window, by the agent, by an undo). */
export type MemoryUpdatedMessage = MemoryUpdated

/** Where a version came from. */
export type MemorySource = 'user' | 'agent' | 'undo'
