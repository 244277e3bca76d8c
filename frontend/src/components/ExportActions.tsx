// "Export: JSON | Markdown | ZIP" for one conversation (the chat view's toolbar) or
// for all of them (Settings › Conversations), with where the file went or why
// it did not.

import './export.css'
import { useState } from 'react'
import type { ExportFormat } from '../api'
import { errorText, exportMessage, type ExportOutcome } from '../state/archive'

interface Props {
  /** What is exported, for the buttons' accessible names ("this conversation"). */
  what: string
  /** Exports in a button's format (the caller may ask JSON as a zip when there are files: archive.ts exportFormatFor). */
  onExport(format: ExportFormat): Promise<ExportOutcome>
  testId: string
}

const FORMATS: readonly { format: ExportFormat; label: string }[] = [
  { format: 'json', label: 'JSON' },
  { format: 'md', label: 'Markdown' },
  // The JSON with the attachments' files beside it (docs/export.md).
  { format: 'zip', label: 'ZIP' },
]

const TITLES: Partial<Record<ExportFormat, string>> = { zip: 'The JSON export with the attached files, as a .zip' }

interface Status {
  ok: boolean
  text: string
}

export function ExportActions({ what, onExport, testId }: Props) {
  const [busy, setBusy] = useState<ExportFormat | null>(null)
  const [status, setStatus] = useState<Status | null>(null)
  const run = async (format: ExportFormat) => {
    setBusy(format)
    setStatus(null)
    try {
      setStatus({ ok: true, text: exportMessage(await onExport(format)) })
    } catch (err) {
      setStatus({ ok: false, text: `Export failed: ${errorText(err)}` })
    } finally {
      setBusy(null)
    }
  }
  return (
    <div className="export-actions" data-testid={testId} aria-busy={busy !== null}>
      <span className="export-label">Export</span>
      {FORMATS.map(({ format, label }) => (
        <button
          key={format}
          type="button"
          className="header-button"
          data-testid={`${testId}-${format}`}
          aria-label={`Export ${what} as ${label}`}
          title={TITLES[format]}
          disabled={busy !== null}
          onClick={() => void run(format)}
        >
          {busy === format ? 'Exporting…' : label}
        </button>
      ))}
      {status !== null ? (
        <span
          className={`export-status ${status.ok ? 'tone-ok' : 'tone-error'}`}
          role={status.ok ? 'status' : 'alert'}
          data-testid={`${testId}-status`}
        >
          {status.text}
        </span>
      ) : null}
    </div>
  )
}
