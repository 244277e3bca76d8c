// Decoders of the export and import answers.

import type { ImportResult } from './archiveTypes'
import { decodeImportResult as decodeResult, decodeOrNull } from './wire.gen'

const isCount = (n: number): boolean => Number.isInteger(n) && n >= 0

/** POST /api/import: the generated check, and counts that are counts. */
export function decodeImportResult(v: unknown): ImportResult | null {
  const r = decodeOrNull(decodeResult, v)
  return r !== null && isCount(r.imported) && isCount(r.skipped) ? r : null
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
