// The memory's requests (docs/memory.md), a part of the one API client:
// ApiClient.memory (rest.ts) is a MemoryClient over the client's own transport,
// so every failure is the client's ApiError. GET /api/memory, PUT /api/memory
// (refused with 409 when the memory changed since the version the edit
// started from: never a silent overwrite), GET /api/memory/history and
// POST /api/memory/undo.

import type { JsonObject } from './json'
import { decodeMemory, decodeMemoryHistory } from './memoryDecode'
import type { Memory, MemorySaveResult, MemoryVersion } from './memoryTypes'

/** An answer: its status and its parsed JSON body (undefined when not JSON). */
export interface TransportReply {
  ok: boolean
  status: number
  statusText: string
  parsed: unknown
}

/** What a MemoryClient needs of the API client (rest.ts gives it; this module does not import it). */
export interface MemoryTransport {
  /** Sends a JSON request; any answer comes back (a status is never thrown), a network failure is. */
  exchange(method: 'GET' | 'PUT' | 'POST', path: string, body?: JsonObject): Promise<TransportReply>
  /** The body of a 2xx JSON answer; anything else is thrown as the client's ApiError. */
  answer(reply: TransportReply, what: string): unknown
  /** The client's error for a 2xx body that is not its shape. */
  malformed(what: string): Error
}

export class MemoryClient {
  constructor(private readonly transport: MemoryTransport) {}

  /** The memory of the current character (version 0 and no text when never written). */
  async get(): Promise<Memory> {
    return this.memory(await this.transport.exchange('GET', '/api/memory'), '/api/memory')
  }

  /**
   * Replaces the memory's text. baseVersion is the version the edit started
   * from: when the memory changed since (another window, the agent, an
   * undo), nothing is written and the answer says so ({ok: false}). Rejects
   * with ApiError for anything else (413/400 over the size bound).
   */
  async save(text: string, baseVersion: number): Promise<MemorySaveResult> {
    const reply = await this.transport.exchange('PUT', '/api/memory', { text, baseVersion })
    if (reply.status === 409) return { ok: false, error: errorOf(reply.parsed) ?? 'the memory changed elsewhere' }
    return { ok: true, memory: this.memory(reply, '/api/memory') }
  }

  /** Every kept version, newest first (at most 100). */
  async history(): Promise<MemoryVersion[]> {
    const reply = await this.transport.exchange('GET', '/api/memory/history')
    const versions = decodeMemoryHistory(this.transport.answer(reply, '/api/memory/history'))
    if (versions === null) throw this.transport.malformed('memory history')
    return versions
  }

  /** Goes back to the version before the newest. Rejects with ApiError 409 when there is none. */
  async undo(): Promise<Memory> {
    return this.memory(await this.transport.exchange('POST', '/api/memory/undo', {}), '/api/memory/undo')
  }

  private memory(reply: TransportReply, path: string): Memory {
    const memory = decodeMemory(this.transport.answer(reply, path))
    if (memory === null) throw this.transport.malformed('memory')
    return memory
  }
}

function errorOf(parsed: unknown): string | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null
  const error = (parsed as Record<string, unknown>).error
  return typeof error === 'string' && error !== '' ? error : null
}
