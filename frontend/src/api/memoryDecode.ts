// Decoders of the memory's answers and frame (memoryTypes.ts): the generated
// checks, null for a value that is not its shape.

import type { Memory, MemoryUpdatedMessage, MemoryVersion } from './memoryTypes'
import type { JsonObject } from './json'
import * as wire from './wire.gen'

/** GET/PUT /api/memory, POST /api/memory/undo. */
export function decodeMemory(v: unknown): Memory | null {
  return wire.decodeOrNull(wire.decodeMemory, v)
}

/** GET /api/memory/history: {versions}, newest first. */
export function decodeMemoryHistory(v: unknown): MemoryVersion[] | null {
  return wire.decodeOrNull(wire.decodeMemoryHistory, v)?.versions ?? null
}

/** /ws memory-updated. */
export function decodeMemoryUpdated(v: JsonObject): MemoryUpdatedMessage | null {
  return wire.decodeOrNull(wire.decodeMemoryUpdated, v)
}
