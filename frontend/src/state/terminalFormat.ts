// Display helpers of the terminal panel.

import type { TerminalRunStatus } from '../api/terminalTypes'

/** 5000 → "5 s", 1500 → "1.5 s", 300000 → "5 min", 90000 → "1 min 30 s", 7200000 → "2 h". */
export function formatLimit(ms: number): string {
  if (!Number.isFinite(ms) || ms <= 0) return '0 s'
  if (ms < 60_000) {
    const s = Math.round(ms / 100) / 10
    return `${s} s`
  }
  const totalS = Math.round(ms / 1000)
  const h = Math.floor(totalS / 3600)
  const m = Math.floor((totalS % 3600) / 60)
  const s = totalS % 60
  if (h > 0 && m === 0 && s === 0) return `${h} h`
  if (h > 0) return `${h} h ${m} min`
  return s === 0 ? `${m} min` : `${m} min ${s} s`
}

export interface StatusFacts {
  status: TerminalRunStatus
  exitCode: number | null
  error: string
  maxDurationMs: number
}

/** The sentence under the terminal: "Running…", "Exited with 0", "Timed out after 5 s (exit 124)", … */
export function formatRunStatus({ status, exitCode, error, maxDurationMs }: StatusFacts): string {
  switch (status) {
    case 'running':
      return 'Running…'
    case 'exited':
      return exitCode === null ? 'Exited' : `Exited with ${exitCode}`
    case 'timeout': {
      const after = maxDurationMs > 0 ? ` after ${formatLimit(maxDurationMs)}` : ''
      return `Timed out${after} (exit ${exitCode ?? 124})`
    }
    case 'killed':
      return exitCode === null ? 'Killed' : `Killed (exit ${exitCode})`
    case 'error':
      return `Could not start: ${error || 'unknown error'}`
  }
}

/** The short badge of a run in the list (its exit code is shown next to it). */
export function runBadge(status: TerminalRunStatus): string {
  switch (status) {
    case 'running':
      return 'running'
    case 'exited':
      return 'exited'
    case 'timeout':
      return 'timed out'
    case 'killed':
      return 'killed'
    case 'error':
      return 'failed'
  }
}

/** "ok" for a clean exit, "bad" for anything that went wrong, "live" while running. */
export function runTone(status: TerminalRunStatus, exitCode: number | null): 'live' | 'ok' | 'bad' {
  if (status === 'running') return 'live'
  return status === 'exited' && exitCode === 0 ? 'ok' : 'bad'
}

/** A 401 from starting a run that is about the terminal token, not the API token. */
export function mentionsTerminalToken(message: string): boolean {
  return /terminal[ _-]?token|x-terminal-token/i.test(message)
}

/** Command line checks the server makes too (docs/terminal.md), so the user hears of them at once. */
export const MAX_COMMAND_LENGTH = 4096

export function commandProblem(command: string): string | null {
  const trimmed = command.trim()
  if (trimmed === '') return 'Type a command first.'
  if (codePoints(trimmed) > MAX_COMMAND_LENGTH) return `The command is longer than ${MAX_COMMAND_LENGTH} characters.`
  if (/[\n\r\0]/.test(trimmed)) return 'The command must be one line.'
  return null
}

function codePoints(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

/**
 * The server takes at most 16 KiB of input per frame and a frame of at most
 * 64 KiB; 8 KiB of UTF-8 stays under both even when JSON escapes every byte
 * of control characters. A paste is sent in pieces, never inside a character.
 */
export const MAX_INPUT_BYTES = 8 << 10

export function splitInput(data: string, maxBytes = MAX_INPUT_BYTES): string[] {
  if (data.length * 3 <= maxBytes) return data === '' ? [] : [data]
  const out: string[] = []
  let piece = ''
  let bytes = 0
  for (const ch of data) {
    const cp = ch.codePointAt(0) ?? 0
    const size = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4
    if (bytes + size > maxBytes && piece !== '') {
      out.push(piece)
      piece = ''
      bytes = 0
    }
    piece += ch
    bytes += size
  }
  if (piece !== '') out.push(piece)
  return out
}
