// Decoders of the memory's answers and frame (memoryTypes.ts): the generated
// checks, null for a value that is not its shape.

import type { Memory, MemoryUpdatedMessage, MemoryVersion } from './memoryTypes'
import type { JsonObject } from './json'
import { decodeOrNull } from './wire.gen'
// PENDING (issue 30): from './wire.gen' once the memory backend is merged.
import * as pending from './pending30Mem'

/** GET/PUT /api/memory, POST /api/memory/undo. */
export function decodeMemory(v: unknown): Memory | null {
  return decodeOrNull(pending.decodeMemory, v)
}

/** GET /api/memory/history: {versions}, newest first. */
export function decodeMemoryHistory(v: unknown): MemoryVersion[] | null {
  return decodeOrNull(pending.decodeMemoryHistory, v)?.versions ?? null
}

/** /ws memory-updated. */
export function decodeMemoryUpdated(v: JsonObject): MemoryUpdatedMessage | null {
  return decodeOrNull(pending.decodeMemoryUpdated, v)
}
