// "Import…": a Wisp export or ChatGPT's conversations.json, sent to the server
// as it is; then what came in, what was already here, and what could not be
// brought in, or why the file was refused. New conversations reach the list
// through /ws (conversation-updated).

import './export.css'
import { useRef, useState, type ChangeEvent } from 'react'
import type { ImportResult } from '../api'
import { IMPORT_MAX_BYTES, errorText, importSummary, looksLikeZip } from '../state/archive'

interface Props {
  onImport(file: Blob): Promise<ImportResult>
}

export function ImportForm({ onImport }: Props) {
  const [busy, setBusy] = useState(false)
  const [result, setResult] = useState<ImportResult | null>(null)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)
  const onChange = async (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    if (file === undefined) return
    setResult(null)
    setError(null)
    if (file.size > IMPORT_MAX_BYTES && !looksLikeZip(file)) {
      setError(`Import failed: the file is larger than ${IMPORT_MAX_BYTES / (1024 * 1024)} MiB`)
      return
    }
    setBusy(true)
    try {
      setResult(await onImport(file))
    } catch (err) {
      setError(`Import failed: ${errorText(err)}`)
    } finally {
      setBusy(false)
      if (input.current !== null) input.current.value = '' // the same file again is a new choice
    }
  }
  return (
    <div className="import-form" data-testid="import" aria-busy={busy}>
      <label className={`header-button import-pick${busy ? ' is-busy' : ''}`}>
        {busy ? 'Importing…' : 'Import…'}
        <input
          ref={input}
          type="file"
          accept=".json,.zip,application/json,application/zip"
          className="visually-hidden"
          data-testid="import-file"
          disabled={busy}
          onChange={(e) => void onChange(e)}
        />
      </label>
      <span className="hint">A Wisp export (JSON, or the ZIP with its files) or ChatGPT’s conversations.json</span>
      {error !== null ? (
        <p className="notice notice-error import-message" role="alert" data-testid="import-error">
          {error}
        </p>
      ) : null}
      {result !== null ? (
        <div className="notice notice-info import-message" role="status" data-testid="import-result">
          {importSummary(result)}
          {result.failed.length > 0 ? (
            <ul className="import-failed">
              {result.failed.map((f) => (
                <li key={f.id}>
                  <strong>{f.title}</strong>: {f.error}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  )
}
