// The memory's history in Settings › Memory: every kept version, newest
// first, with who made it (you, Wisp, an undo) and when; each version's text
// opens in place (a disclosure, so keyboard and screen readers get it as
// such), shown as text. Undo goes back to the version before the newest.

import './MemorySettings.css'
import type { MemoryVersion } from '../api'
import { formatTimestamp } from '../format'
import type { MemoryState, MemoryStore } from '../state/memoryStore'

const SOURCES: Record<string, string> = { user: 'You', agent: 'Wisp', undo: 'Undo' }

export function MemoryHistory({ store, state }: { store: MemoryStore; state: MemoryState }) {
  const { history, historyError, undoing, saving } = state
  // Undo can go back to before the oldest version (the empty memory); the server says when it cannot.
  const canUndo = history !== null && history.length > 0
  return (
    <div className="memory-history" data-testid="memory-history">
      <h4 id="memory-history-title">
        History
        <button
          type="button"
          className="header-button"
          data-testid="memory-undo"
          disabled={!canUndo || undoing || saving}
          title="Go back to the version before the last change"
          onClick={() => void store.undo()}
        >
          {undoing ? 'Undoing…' : 'Undo the last change'}
        </button>
      </h4>
      {historyError !== null ? (
        <p className="notice notice-error" role="alert">
          Could not load the history: {historyError}
        </p>
      ) : null}
      {history === null ? null : history.length === 0 ? (
        <p className="empty" data-testid="memory-history-empty">
          No versions yet: the memory has never been written.
        </p>
      ) : (
        <ol className="memory-versions" aria-labelledby="memory-history-title">
          {history.map((v) => (
            <VersionRow key={v.version} version={v} />
          ))}
        </ol>
      )}
    </div>
  )
}

function VersionRow({ version: v }: { version: MemoryVersion }) {
  const at = Date.parse(v.updatedAt)
  const source = SOURCES[v.source] ?? v.source
  return (
    <li className="memory-version" data-testid="memory-version" data-version={v.version} data-source={v.source}>
      <details>
        <summary>
          <span className={`tag memory-source source-${v.source}`}>{source}</span>
          <span>Version {v.version}</span>
          <time className="muted" dateTime={v.updatedAt}>
            {Number.isNaN(at) ? v.updatedAt : formatTimestamp(at)}
          </time>
        </summary>
        <pre data-testid="memory-version-text">{v.text === '' ? '(empty)' : v.text}</pre>
      </details>
    </li>
  )
}
