// The memory as docs/memory.md shows it, for tests.

import type { Memory, MemoryVersion } from './memoryTypes'

export const memoryExample: Memory = {
  text: '# About the user\n- Prefers tea.\n',
  updatedAt: '2026-11-27T10:00:00Z',
  version: 3,
  maxBytes: 16384,
  character: 'wisp',
}

export const memoryHistoryExample: MemoryVersion[] = [
  { version: 3, text: memoryExample.text, updatedAt: '2026-11-27T10:00:00Z', source: 'agent' },
  { version: 2, text: '# About the user\n', updatedAt: '2026-11-26T09:00:00Z', source: 'user' },
  { version: 1, text: '', updatedAt: '2026-11-25T08:00:00Z', source: 'undo' },
]
