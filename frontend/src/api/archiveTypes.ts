// Export and import of conversations (docs/export.md).

/**
 * What an export is written as: Wisp's lossless JSON, Markdown to read, or a
 * .zip of the JSON with the attachments' files beside it (docs/export.md).
 */
export type ExportFormat = 'json' | 'md' | 'zip'

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
