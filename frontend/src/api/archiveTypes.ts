// Export and import of conversations (docs/export.md).

/** What an export is written as: Wisp's lossless JSON, or Markdown to read. */
export type ExportFormat = 'json' | 'md'

/** What an import file is: told by the file itself ('auto'), or said. */
export type ImportFormat = 'auto' | 'wisp' | 'chatgpt'

/** An export as the server sent it, ready to be saved. */
export interface ExportFile {
  filename: string
  blob: Blob
}

/**
 * POST /api/import's answer (ImportResult: imported, skipped whole, the ids brought
 * in, and the ones that were not with why) and its ImportFailure, generated from
 * the Go types.
 */
export type { ImportFailure, ImportResult } from './wire.gen'
