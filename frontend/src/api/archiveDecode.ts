// Decoders of the export and import answers.

import type { ImportFailure, ImportResult } from './archiveTypes'
import { decodeAll, isObject, isString, isStringArray } from './guards'

function isCount(v: unknown): v is number {
  return typeof v === 'number' && Number.isInteger(v) && v >= 0
}

function decodeFailure(v: unknown): ImportFailure | null {
  if (!isObject(v) || !isString(v.id) || !isString(v.title) || !isString(v.error)) return null
  return { id: v.id, title: v.title, error: v.error }
}

export function decodeImportResult(v: unknown): ImportResult | null {
  if (!isObject(v) || !isCount(v.imported) || !isCount(v.skipped)) return null
  if (!isStringArray(v.conversations)) return null
  const failed = decodeAll(v.failed, decodeFailure)
  if (failed === null) return null
  return { imported: v.imported, skipped: v.skipped, conversations: [...v.conversations], failed }
}

/**
 * The file name a Content-Disposition header gives (filename*=UTF-8''… first, then
 * filename=), reduced to a bare name: no folders, no control characters. fallback
 * when there is none.
 */
export function filenameFromDisposition(header: string | null, fallback: string): string {
  if (header === null) return fallback
  let name: string | null = null
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)
  if (extended !== null) {
    try {
      name = decodeURIComponent(extended[1]!.trim())
    } catch {
      name = null
    }
  }
  if (name === null) {
    const plain = /filename\s*=\s*("((?:[^"\\]|\\.)*)"|[^;\s]+)/i.exec(header)
    if (plain !== null) name = plain[2] !== undefined ? plain[2].replace(/\\(.)/g, '$1') : plain[1]!
  }
  const bare = (name ?? '')
    .split(/[/\\]/)
    .pop()!
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
  return bare === '' || bare === '.' || bare === '..' ? fallback : bare
}
