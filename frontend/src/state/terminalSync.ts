// The view of one terminal run, merged from its scrollback (GET
// /api/terminal/runs/{id}) and live terminal-output events (docs/terminal.md
// "Events on /ws"). Pure: every step returns the next state and the text to
// write to the terminal, and the caller owns the xterm instance.
//
// Rules: while the scrollback is being fetched ("loading") live events are
// held; the scrollback then replaces the whole view, and only events with a
// seq above its lastSeq are applied, each seq once. A gap in the live seqs
// means events were missed: the view goes back to loading and asks for a
// fresh scrollback.

import type {
  TerminalOutputMessage,
  TerminalRun,
  TerminalRunDetail,
  TerminalRunStatus,
} from '../api/terminalTypes'

export interface RunSync {
  runId: string
  phase: 'loading' | 'live'
  /** The highest seq written to the view. */
  lastSeq: number
  /** Live events received while loading, in arrival order. */
  held: TerminalOutputMessage[]
  status: TerminalRunStatus
  exitCode: number | null
  error: string
  maxDurationMs: number
  /** Captured runs write bare \n (the view converts line ends). */
  captured: boolean
  /** The user asked to kill it: an exit after a signal reads "killed". */
  killRequested: boolean
}

export interface SyncStep {
  sync: RunSync
  /** Text for the terminal, in order. */
  writes: string[]
  /** The view must be cleared (and convertEol set from sync.captured) before the writes. */
  reset: boolean
  /** Events were missed: fetch the scrollback again and call applySnapshot. */
  resync: boolean
}

/** Held events kept at most while loading; older ones are in the scrollback anyway. */
export const MAX_HELD_EVENTS = 5000

export const TRUNCATED_NOTE = '\x1b[2m[earlier output not kept]\x1b[0m\r\n'

export function isEnded(status: TerminalRunStatus): boolean {
  return status !== 'running'
}

/** A view of runId that waits for its scrollback; `known` is what the caller already knows about the run. */
export function beginSync(runId: string, known: Partial<Pick<RunSync, 'status' | 'captured' | 'maxDurationMs'>> = {}): RunSync {
  return {
    runId,
    phase: 'loading',
    lastSeq: 0,
    held: [],
    status: known.status ?? 'running',
    exitCode: null,
    error: '',
    maxDurationMs: known.maxDurationMs ?? 0,
    captured: known.captured ?? false,
    killRequested: false,
  }
}

/** Starts over from a fresh scrollback, keeping what the view knows about the run and the held events. */
export function restartSync(sync: RunSync): RunSync {
  return { ...sync, phase: 'loading' }
}

function step(sync: RunSync, writes: string[] = [], reset = false, resync = false): SyncStep {
  return { sync, writes, reset, resync }
}

/** Applies one live event (events of other runs leave the view as it is). */
export function applyEvent(sync: RunSync, ev: TerminalOutputMessage): SyncStep {
  if (ev.runId !== sync.runId) return step(sync)
  if (sync.phase === 'loading') {
    const held = [...sync.held, ev]
    if (held.length > MAX_HELD_EVENTS) held.splice(0, held.length - MAX_HELD_EVENTS)
    return step({ ...sync, held })
  }
  if (ev.seq <= sync.lastSeq) return step(sync)
  if (ev.seq > sync.lastSeq + 1) {
    return step({ ...sync, phase: 'loading', held: [ev] }, [], false, true)
  }
  const writes: string[] = []
  return step(applyOne(sync, ev, writes), writes)
}

/**
 * Replaces the view with a run's scrollback, then applies the held events
 * that are newer than it.
 */
export function applySnapshot(sync: RunSync, detail: TerminalRunDetail): SyncStep {
  if (detail.runId !== sync.runId) return step(sync)
  const writes: string[] = []
  if (detail.scrollbackTruncated) writes.push(TRUNCATED_NOTE)
  const seen = new Set<number>()
  const chunks = [...detail.scrollback].sort((a, b) => a.seq - b.seq)
  for (const chunk of chunks) {
    if (seen.has(chunk.seq)) continue
    seen.add(chunk.seq)
    if (chunk.data !== '') writes.push(chunk.data)
  }
  let next: RunSync = {
    ...sync,
    phase: 'live',
    held: [],
    lastSeq: detail.lastSeq,
    status: detail.status,
    exitCode: detail.exitCode,
    error: detail.error,
    maxDurationMs: detail.maxDurationMs || sync.maxDurationMs,
    captured: detail.captured,
  }
  const held = [...sync.held].filter((ev) => ev.seq > detail.lastSeq).sort((a, b) => a.seq - b.seq)
  for (const ev of held) {
    if (ev.seq <= next.lastSeq) continue
    if (ev.seq > next.lastSeq + 1) {
      // Still a hole after the scrollback: ask again, keeping what is left.
      return step({ ...next, phase: 'loading', held: held.filter((h) => h.seq >= ev.seq) }, writes, true, true)
    }
    next = applyOne(next, ev, writes)
  }
  return step(next, writes, true)
}

function applyOne(sync: RunSync, ev: TerminalOutputMessage, writes: string[]): RunSync {
  const next: RunSync = { ...sync, lastSeq: ev.seq }
  switch (ev.event) {
    case 'start':
      next.status = 'running'
      if (ev.maxDurationMs > 0) next.maxDurationMs = ev.maxDurationMs
      break
    case 'stdout':
    case 'stderr':
      if (ev.data !== '') writes.push(ev.data)
      break
    case 'timeout':
      next.status = 'timeout'
      if (ev.maxDurationMs > 0) next.maxDurationMs = ev.maxDurationMs
      break
    case 'exit':
      next.exitCode = ev.code
      // After a timeout (or an end the server already reported) the status stays.
      if (sync.status === 'running') next.status = sync.killRequested && ev.code >= 128 ? 'killed' : 'exited'
      break
    case 'error':
      next.status = 'error'
      next.error = ev.data
      break
  }
  return next
}

export function markKillRequested(sync: RunSync): RunSync {
  return { ...sync, killRequested: true }
}

/**
 * Takes the server's word for a run that has ended (its list says "killed"
 * where the events alone only show an exit code, and an exit event may have
 * been lost with a connection). A running entry never undoes an end.
 */
export function adoptRunInfo(sync: RunSync, run: TerminalRun): RunSync {
  if (run.runId !== sync.runId || !isEnded(run.status)) return sync
  if (sync.status === run.status && sync.exitCode === run.exitCode && sync.error === run.error) return sync
  return { ...sync, status: run.status, exitCode: run.exitCode ?? sync.exitCode, error: run.error || sync.error }
}
