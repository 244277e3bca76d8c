// The memory's decoders (pending30Mem.ts until the backend's generated ones):
// every field checked, wrong and missing ones refused; the memory-updated
// frame through the socket's decoder; an approval of kind memory with its text.

import { describe, expect, it } from 'vitest'
import { decodeApproval } from './approvalDecode'
import { memoryApprovalExample } from './approvals.test-util'
import { decodeServerMessage } from './decode'
import { memoryExample as memory, memoryHistoryExample as history } from './memory.test-util'
import { decodeMemory, decodeMemoryHistory, decodeMemoryUpdated } from './memoryDecode'

describe('memory decoders', () => {
  it('decode a memory whole, and refuse a wrong or missing field', () => {
    expect(decodeMemory(memory)).toEqual(memory)
    expect(decodeMemory({ ...memory, text: '', version: 0, updatedAt: '' })).toEqual({ ...memory, text: '', version: 0, updatedAt: '' })
    for (const key of Object.keys(memory)) {
      const missing: Record<string, unknown> = { ...memory }
      delete missing[key]
      expect(decodeMemory(missing), `without ${key}`).toBeNull()
    }
    expect(decodeMemory({ ...memory, version: '3' })).toBeNull()
    expect(decodeMemory({ ...memory, maxBytes: Infinity })).toBeNull()
    expect(decodeMemory({ ...memory, text: null })).toBeNull()
    expect(decodeMemory([memory])).toBeNull()
    expect(decodeMemory(null)).toBeNull()
  })

  it('decode the history, and refuse a bad version in it', () => {
    expect(decodeMemoryHistory({ versions: history })).toEqual(history)
    expect(decodeMemoryHistory({ versions: [] })).toEqual([])
    expect(decodeMemoryHistory({ versions: [{ ...history[0], version: null }] })).toBeNull()
    expect(decodeMemoryHistory({ versions: [{ ...history[0], source: undefined }] })).toBeNull()
    expect(decodeMemoryHistory(history)).toBeNull()
  })

  it('decode the memory-updated frame, through the socket’s decoder too', () => {
    const frame = { type: 'memory-updated', memory }
    expect(decodeMemoryUpdated(frame)).toEqual(frame)
    expect(decodeServerMessage(JSON.stringify(frame))).toEqual(frame)
    expect(decodeServerMessage(JSON.stringify({ type: 'memory-updated', memory: { ...memory, text: 5 } }))).toBeNull()
    expect(decodeServerMessage(JSON.stringify({ type: 'memory-updated' }))).toBeNull()
  })

  it('decode an approval of kind memory with its text; text is required, the kind known', () => {
    expect(decodeApproval(memoryApprovalExample)).toEqual(memoryApprovalExample)
    const { text: _text, ...noText } = memoryApprovalExample
    expect(decodeApproval(noText)).toBeNull()
    expect(decodeApproval({ ...memoryApprovalExample, text: 42 })).toBeNull()
    expect(decodeApproval({ ...memoryApprovalExample, kind: 'remember' })).toBeNull()
  })
})
