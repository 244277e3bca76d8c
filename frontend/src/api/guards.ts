// Type guards and small helpers shared by the decoders (decode.ts, chatDecode.ts, approvalDecode.ts, mcpDecode.ts).

import type { JsonObject } from './json'

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

export const isString = (v: unknown): v is string => typeof v === 'string'
export const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)
export const isBoolean = (v: unknown): v is boolean => typeof v === 'boolean'

export function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((s) => typeof s === 'string')
}

/** v when it passes check, else undefined. */
export function optional<T>(v: unknown, check: (x: unknown) => x is T): T | undefined {
  return check(v) ? v : undefined
}

/** A guard for one of the listed string literals. */
export function oneOf<const T extends string>(values: readonly T[]): (v: unknown) => v is T {
  const set = new Set<string>(values)
  return (v: unknown): v is T => typeof v === 'string' && set.has(v)
}

/** Marks a field that is present but wrong (see orDefault). */
export const BAD = Symbol('bad field')

/** fallback when v is absent, v when it passes check, else BAD. */
export function orDefault<T>(v: unknown, check: (x: unknown) => x is T, fallback: T): T | typeof BAD {
  if (v === undefined) return fallback
  return check(v) ? v : BAD
}

/** Decodes every element or fails as a whole. */
export function decodeAll<T>(list: unknown, decode: (v: unknown) => T | null): T[] | null {
  if (!Array.isArray(list)) return null
  const out: T[] = []
  for (const item of list) {
    const decoded = decode(item)
    if (decoded === null) return null
    out.push(decoded)
  }
  return out
}
