// Wire types of the terminal API (docs/terminal.md). The runs, their list and
// scrollback are generated from the Go types (wire.gen.ts); a terminal-output frame
// is read as a union by event (the server sends only its event's fields).
// Decoders live in terminalDecode.ts.

export type {
  TerminalRunStatus,
  TerminalRun,
  TerminalRuns as TerminalRunList,
  TerminalChunk as ScrollbackChunk,
  TerminalSnapshot as TerminalRunDetail,
  TerminalStarted as StartTerminalRunResult,
} from './wire.gen'

/** Body of POST /api/terminal/run (the client id goes in the X-Client-Id header). */
export interface StartTerminalRunRequest {
  command: string
  cols?: number
  rows?: number
}

/** What POST /api/terminal/run needs besides the body. */
export interface TerminalAuth {
  clientId: string
  /** X-Terminal-Token; only needed when the server has an API token. */
  terminalToken?: string
}

interface TerminalOutputBase {
  type: 'terminal-output'
  runId: string
  /** 1, 2, 3, … per run. */
  seq: number
}

/** A terminal-output frame on /ws. */
export type TerminalOutputMessage = TerminalOutputBase &
  (
    | { event: 'start'; command: string; maxDurationMs: number }
    | { event: 'stdout' | 'stderr'; data: string }
    | { event: 'timeout'; maxDurationMs: number }
    | { event: 'exit'; code: number }
    | { event: 'error'; data: string }
  )

export type TerminalEventKind = TerminalOutputMessage['event']
