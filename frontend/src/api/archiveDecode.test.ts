import { describe, expect, it } from 'vitest'
import { decodeImportResult, filenameFromDisposition } from './archiveDecode'

describe('decodeImportResult', () => {
  it('keeps every field', () => {
    const v = {
      imported: 2,
      skipped: 1,
      conversations: ['a', 'b'],
      failed: [{ id: 'c', title: 'Clash', error: 'an id is taken' }],
    }
    expect(decodeImportResult(v)).toEqual(v)
  })

  it('refuses what is not an answer of /api/import', () => {
    const ok = { imported: 0, skipped: 0, conversations: [], failed: [] }
    for (const bad of [
      null,
      [],
      { ...ok, imported: -1 },
      { ...ok, skipped: 1.5 },
      { ...ok, imported: '1' },
      { ...ok, conversations: [1] },
      { ...ok, conversations: undefined },
      { ...ok, failed: [{ id: 'x', title: 'T' }] },
      { ...ok, failed: null },
    ]) {
      expect(decodeImportResult(bad), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe('filenameFromDisposition', () => {
  it('reads the name the server gives', () => {
    expect(filenameFromDisposition('attachment; filename=wisp-chat-20261121-090000.json', 'x')).toBe(
      'wisp-chat-20261121-090000.json',
    )
    expect(filenameFromDisposition('attachment; filename="a b \\"c\\".md"', 'x')).toBe('a b "c".md')
    expect(filenameFromDisposition("attachment; filename=\"plain.md\"; filename*=UTF-8''caf%C3%A9.md", 'x')).toBe('café.md')
  })

  it('keeps a bare, printable name, or the fallback', () => {
    expect(filenameFromDisposition('attachment; filename="../../etc/passwd"', 'x')).toBe('passwd')
    expect(filenameFromDisposition('attachment; filename="C:\\\\evil\\\\x.json"', 'x')).toBe('x.json')
    expect(filenameFromDisposition('attachment; filename="a\u0007b.json"', 'x')).toBe('ab.json')
    expect(filenameFromDisposition("attachment; filename*=UTF-8''%E0%A4%A", 'fallback.json')).toBe('fallback.json')
    expect(filenameFromDisposition('attachment; filename=".."', 'fallback.json')).toBe('fallback.json')
    expect(filenameFromDisposition('attachment', 'fallback.json')).toBe('fallback.json')
    expect(filenameFromDisposition(null, 'fallback.json')).toBe('fallback.json')
  })
})
