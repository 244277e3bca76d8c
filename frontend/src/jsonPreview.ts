// Indented JSON for showing a value someone else wrote (a model's tool
// arguments): the work and the text are bounded, so a huge or deeply nested
// value cannot freeze the page or overflow the stack, and a cut never splits
// a character in two. Strings are quoted as JSON.stringify quotes them
// (controls escaped); characters that could make the text read differently
// than it is (bidirectional overrides, zero-width ones) are left in for the
// page to draw as escapes (HiddenText), which it can then count and flag.

import { sliceWhole } from './format'

export interface JsonPreview {
  text: string
  /** Something was left out: the text reached maxChars, or nesting went deeper than maxDepth. */
  cut: boolean
}

export const PREVIEW_MAX_CHARS = 20_000
export const PREVIEW_MAX_DEPTH = 32

const quote = (s: string): string => JSON.stringify(s)

/** value as indented JSON, cut after maxChars characters and below maxDepth levels. */
export function previewJSON(value: unknown, maxChars = PREVIEW_MAX_CHARS, maxDepth = PREVIEW_MAX_DEPTH): JsonPreview {
  const parts: string[] = []
  let size = 0
  /** The text reached maxChars: nothing more is written. */
  let full = false
  /** Something nested deeper than maxDepth was left out. */
  let deep = false
  const emit = (s: string): void => {
    if (full) return
    const room = maxChars - size
    if (s.length > room) {
      parts.push(sliceWhole(s, room))
      size = maxChars
      full = true
      return
    }
    parts.push(s)
    size += s.length
  }

  const walk = (v: unknown, indent: string, depth: number): void => {
    if (full) return
    if (v === null || typeof v === 'boolean') emit(String(v))
    else if (typeof v === 'number') emit(Number.isFinite(v) ? String(v) : 'null')
    // A huge string is cut before it is quoted, so it costs no more than maxChars.
    else if (typeof v === 'string') emit(quote(v.length > maxChars ? sliceWhole(v, maxChars) : v))
    else if (Array.isArray(v)) walkArray(v, indent, depth)
    else if (typeof v === 'object') walkObject(v as Record<string, unknown>, indent, depth)
    else emit('null') // undefined, functions, symbols, bigints: not JSON
  }

  const walkArray = (v: unknown[], indent: string, depth: number): void => {
    if (v.length === 0) return emit('[]')
    if (depth >= maxDepth) {
      deep = true
      return emit('[…]')
    }
    const inner = `${indent}  `
    emit('[\n')
    for (let i = 0; i < v.length && !full; i++) {
      emit(inner)
      walk(v[i], inner, depth + 1)
      emit(i < v.length - 1 ? ',\n' : '\n')
    }
    emit(`${indent}]`)
  }

  const walkObject = (v: Record<string, unknown>, indent: string, depth: number): void => {
    let first = true
    const inner = `${indent}  `
    for (const key in v) {
      if (!Object.prototype.hasOwnProperty.call(v, key)) continue
      if (first) {
        if (depth >= maxDepth) {
          deep = true
          return emit('{…}')
        }
        emit('{\n')
        first = false
      } else emit(',\n')
      emit(`${inner}${quote(key)}: `)
      walk(v[key], inner, depth + 1)
      if (full) return
    }
    emit(first ? '{}' : `\n${indent}}`)
  }

  walk(value, '', 0)
  return { text: parts.join(''), cut: full || deep }
}
