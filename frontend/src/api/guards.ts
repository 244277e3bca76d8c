// Type guards shared by the decoders (decode.ts, chatDecode.ts).

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
