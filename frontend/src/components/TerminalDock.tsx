// Loads the terminal panel (and xterm.js with it) only when it is opened, so
// the first chunk of the app stays small.

import './terminal.css'
import { Component, Suspense, lazy, type ReactNode } from 'react'
import type { TerminalRunRequest } from '../state/terminalOpener'

const TerminalPanel = lazy(() => import('./TerminalPanel'))

interface Props {
  onClose(): void
  /** A run to focus ("Show in Terminal" on a tool card). */
  focusRun?: TerminalRunRequest | null
}

export function TerminalDock({ onClose, focusRun = null }: Props) {
  return (
    <LoadBoundary onClose={onClose}>
      <Suspense
        fallback={
          <section className="terminal-dock" id="terminal-panel" aria-label="Terminal" aria-busy="true">
            <p className="empty terminal-note">Loading the terminal…</p>
          </section>
        }
      >
        <TerminalPanel onClose={onClose} focusRun={focusRun} />
      </Suspense>
    </LoadBoundary>
  )
}

/** A failed chunk load (an old page after an update, say) shows a note instead of taking the app down. */
class LoadBoundary extends Component<{ children: ReactNode; onClose(): void }, { error: string | null }> {
  state = { error: null as string | null }

  static getDerivedStateFromError(err: unknown) {
    return { error: err instanceof Error ? err.message : String(err) }
  }

  render() {
    if (this.state.error === null) return this.props.children
    return (
      <section className="terminal-dock" id="terminal-panel" aria-label="Terminal">
        <p className="terminal-note terminal-error" role="alert">
          The terminal could not be loaded: {this.state.error}. Reload the page to try again.
        </p>
        <button type="button" className="header-button terminal-note-button" onClick={this.props.onClose}>
          Close
        </button>
      </section>
    )
  }
}
