import { describe, expect, it } from 'vitest'
import { previewJSON } from './jsonPreview'

describe('previewJSON', () => {
  it('writes what JSON.stringify writes, indented by two', () => {
    for (const v of [
      { repo: 'me/wisp', title: 'Crash', labels: ['bug', 'ui'], n: 3, ok: true, none: null, nested: { a: [], b: {} } },
      [1, 'two', [3, [4]], { five: 5 }],
      'just text',
      42,
      null,
      {},
      [],
    ]) {
      expect(previewJSON(v)).toEqual({ text: JSON.stringify(v, null, 2), cut: false })
    }
  })

  it('writes values JSON has no place for as null', () => {
    expect(previewJSON({ a: Number.NaN, b: Infinity }).text).toBe('{\n  "a": null,\n  "b": null\n}')
    expect(previewJSON(undefined).text).toBe('null')
  })

  it('stops at maxChars, however big the value, and says so', () => {
    const huge = { text: 'x'.repeat(5_000_000), rows: Array.from({ length: 100_000 }, (_, i) => ({ i })) }
    const started = performance.now()
    const preview = previewJSON(huge, 1000)
    expect(performance.now() - started).toBeLessThan(500)
    expect(preview.cut).toBe(true)
    expect(preview.text).toHaveLength(1000)
    expect(preview.text.startsWith('{\n  "text": "xxx')).toBe(true)
    const many = previewJSON(Array.from({ length: 1_000_000 }, () => 1), 200)
    expect(many).toMatchObject({ cut: true })
    expect(many.text).toHaveLength(200)
  })

  it('does not follow nesting deeper than maxDepth', () => {
    let deep: unknown = 'bottom'
    for (let i = 0; i < 100_000; i++) deep = [deep]
    const preview = previewJSON(deep, 1_000_000, 3)
    expect(preview.cut).toBe(true)
    expect(preview.text).toBe('[\n  [\n    [\n      […]\n    ]\n  ]\n]')
    expect(previewJSON({ a: { b: { c: 1 } } }, 1000, 2).text).toBe('{\n  "a": {\n    "b": {…}\n  }\n}')
  })

  it('escapes controls as JSON does, and leaves hidden characters for the page to draw escaped', () => {
    const sneaky = { 'file\u202e': 'rm -rf /\u202Etxt.exe', zero: 'a\u200bb', ctl: 'bell\u0007' }
    const { text } = previewJSON(sneaky)
    expect(text).toBe('{\n  "file\u202e": "rm -rf /\u202etxt.exe",\n  "zero": "a\u200bb",\n  "ctl": "bell\\u0007"\n}')
  })

  it('never cuts a character in two', () => {
    const smile = '\u{1f600}'
    // '"' and 3 smiles are 7 units: a cut at 6 would split the third.
    expect(previewJSON(smile.repeat(10), 6)).toEqual({ text: `"${smile}${smile}`, cut: true })
    expect(previewJSON(smile.repeat(10), 7)).toEqual({ text: `"${smile}${smile}${smile}`, cut: true })
  })
})
