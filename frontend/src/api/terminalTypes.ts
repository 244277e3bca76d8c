// Wire types of the terminal API (docs/terminal.md). Decoders live in
// terminalDecode.ts; nothing here has behaviour.

export type TerminalRunStatus = 'running' | 'exited' | 'timeout' | 'killed' | 'error'

/** One run of GET /api/terminal/runs. */
export interface TerminalRun {
  runId: string
  command: string
  /** The tab that started it; empty for agent runs. */
  clientId: string
  agent: boolean
  /** Captured runs write bare \n line ends (a terminal view shows them with convertEol). */
  captured: boolean
  status: TerminalRunStatus
  exitCode: number | null
  error: string
  startedAt: number
  endedAt: number | null
  durationMs: number
  maxDurationMs: number
  cols: number
  rows: number
}

/** GET /api/terminal/runs */
export interface TerminalRunList {
  enabled: boolean
  tokenRequired: boolean
  maxConcurrent: number
  maxDurationMs: number
  configPath: string
  /** Active runs and the most recent finished ones, newest first. */
  runs: TerminalRun[]
}

export interface ScrollbackChunk {
  seq: number
  event: 'stdout' | 'stderr'
  data: string
}

/** GET /api/terminal/runs/{id}: the run plus the newest part of its output. */
export interface TerminalRunDetail extends TerminalRun {
  lastSeq: number
  scrollbackTruncated: boolean
  scrollback: ScrollbackChunk[]
}

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

export interface StartTerminalRunResult {
  ok: boolean
  runId: string
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
