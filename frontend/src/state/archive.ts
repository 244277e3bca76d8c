// Export and import from the UI (docs/export.md). An export is saved by the
// desktop window itself when it can (WebKitGTK under Wails has no download
// manager: Desktop.SaveExport streams it into the downloads folder), and
// downloaded by the browser otherwise (fetch, Blob, object URL, <a download>).

import { ApiError, type ExportFile, type ExportFormat, type ImportResult } from '../api'

/**
 * The switch: when true, "JSON" of a conversation with attachments asks for
 * the .zip (the JSON beside the files); when false, the server's JSON carries
 * them inline (base64, version 2, up to its limit) and "ZIP" asks for the zip.
 */
export const JSON_AS_ZIP_WITH_ATTACHMENTS = false

/** The format to ask of the server for a button's, given whether what is exported has attachments. */
export function exportFormatFor(format: ExportFormat, hasAttachments: boolean): ExportFormat {
  return format === 'json' && hasAttachments && JSON_AS_ZIP_WITH_ATTACHMENTS ? 'zip' : format
}

/** Whether a file chosen for import is a zip (the export with files), by its name or type. */
export function looksLikeZip(file: { name: string; type: string }): boolean {
  return /\.zip$/i.test(file.name) || file.type === 'application/zip' || file.type === 'application/x-zip-compressed'
}

/** The biggest JSON file the server imports (api.ImportMaxBytes; a zip's limit is the server's to say). */
export const IMPORT_MAX_BYTES = 64 * 1024 * 1024

export type ExportOutcome = { kind: 'saved'; path: string } | { kind: 'downloaded'; filename: string }

/** Where an export goes. */
export interface ExportSink {
  /** The desktop window's own save (window.go.desktop.Desktop.SaveExport), or null in a browser. */
  desktopSave: ((conversationId: string, format: ExportFormat) => Promise<unknown>) | null
  /** Hands a file to the browser's downloads. */
  download(file: ExportFile): void
}

export interface ExportApi {
  exportConversations(id: string | null, format: ExportFormat): Promise<ExportFile>
}

/**
 * Exports one conversation (every one when id is null) and saves it where this
 * page can. A JSON export whose files are too big to carry inline (the server
 * answers 413 and names format=zip) is asked again as the .zip.
 */
export async function exportConversations(
  api: ExportApi,
  id: string | null,
  format: ExportFormat,
  sink: ExportSink,
): Promise<ExportOutcome> {
  try {
    return await exportOnce(api, id, format, sink)
  } catch (err) {
    if (format !== 'json' || !wantsZip(err)) throw err
    return exportOnce(api, id, 'zip', sink)
  }
}

/** Whether an export's failure says to ask for the .zip instead. */
function wantsZip(err: unknown): boolean {
  if (err instanceof ApiError) return err.status === 413
  return errorText(err).includes('format=zip')
}

async function exportOnce(api: ExportApi, id: string | null, format: ExportFormat, sink: ExportSink): Promise<ExportOutcome> {
  if (sink.desktopSave !== null) {
    const path = await sink.desktopSave(id ?? '', format)
    if (typeof path !== 'string' || path === '') throw new Error('the export was not saved')
    return { kind: 'saved', path }
  }
  const file = await api.exportConversations(id, format)
  sink.download(file)
  return { kind: 'downloaded', filename: file.filename }
}

/** This page's sink: the desktop window's save when bound, else a download. */
export function pageSink(): ExportSink {
  const save = typeof window === 'undefined' ? undefined : window.go?.desktop?.Desktop?.SaveExport
  return {
    desktopSave: typeof save === 'function' ? (id, format) => save(id, format) : null,
    download: downloadInPage,
  }
}

/** How long a downloaded file's object URL is kept for the browser to read it. */
const OBJECT_URL_LIFETIME_MS = 60_000

/** Starts the browser's download of a file. */
export function downloadInPage(file: ExportFile): void {
  const url = URL.createObjectURL(file.blob)
  const link = document.createElement('a')
  link.href = url
  link.download = file.filename
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), OBJECT_URL_LIFETIME_MS)
}

export function exportMessage(o: ExportOutcome): string {
  return o.kind === 'saved' ? `Saved to ${o.path}` : `Downloaded ${o.filename}`
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`
}

/** What an import did, in a sentence. */
export function importSummary(r: ImportResult): string {
  const parts: string[] = []
  if (r.imported > 0) parts.push(`Imported ${plural(r.imported, 'conversation', 'conversations')}.`)
  if (r.skipped > 0) {
    parts.push(`${plural(r.skipped, 'conversation was', 'conversations were')} already here and left as ${r.skipped === 1 ? 'it was' : 'they were'}.`)
  }
  if (r.failed.length > 0) parts.push(`${plural(r.failed.length, 'conversation', 'conversations')} could not be imported.`)
  if (parts.length === 0) return 'The file has no conversations.'
  return parts.join(' ')
}

/** An error of the API, of the desktop binding (a string) or of anything else, in words. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError || err instanceof Error) return err.message
  if (typeof err === 'string' && err !== '') return err
  return 'something went wrong'
}
