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

/** A conversation of an import file that was not brought in (nothing of it was saved). */
export interface ImportFailure {
  id: string
  title: string
  error: string
}

/** POST /api/import's answer. */
export interface ImportResult {
  imported: number
  /** Conversations Wisp already had: skipped whole. */
  skipped: number
  /** The ids of the conversations brought in. */
  conversations: string[]
  failed: ImportFailure[]
}
