// Runtime checks for the terminal API's JSON (docs/terminal.md). A value
// without its identifying fields (run id, command, status, seq, ...) is
// rejected (null); secondary fields of the wrong type fall back to neutral
// defaults so one odd field does not hide a whole run.

import { isBoolean, isNumber, isObject, isString, oneOf } from './guards'
import { TerminalRunStatusValues } from './wire.gen'
import type { JsonObject } from './types'
import type {
  ScrollbackChunk,
  StartTerminalRunResult,
  TerminalOutputMessage,
  TerminalRun,
  TerminalRunDetail,
  TerminalRunList,
} from './terminalTypes'

export const isTerminalRunStatus = oneOf(TerminalRunStatusValues)
const isChunkEvent = oneOf(['stdout', 'stderr'])

/** Same rule as the server's run ids and client ids. */
const ID_PATTERN = /^[A-Za-z0-9._-]{1,128}$/

export function isTerminalRunId(v: unknown): v is string {
  return isString(v) && ID_PATTERN.test(v)
}

const isSeq = (v: unknown): v is number => isNumber(v) && Number.isInteger(v) && v >= 0
const isCount = (v: unknown): v is number => isNumber(v) && v >= 0

function num(v: unknown, fallback: number): number {
  return isCount(v) ? v : fallback
}

function nullableNum(v: unknown): number | null {
  return isNumber(v) ? v : null
}

export function decodeTerminalRun(v: unknown): TerminalRun | null {
  if (!isObject(v)) return null
  const { runId, command, status } = v
  if (!isTerminalRunId(runId) || !isString(command) || !isTerminalRunStatus(status)) return null
  return {
    runId,
    command,
    clientId: isString(v.clientId) ? v.clientId : '',
    agent: isBoolean(v.agent) ? v.agent : false,
    captured: isBoolean(v.captured) ? v.captured : false,
    status,
    exitCode: nullableNum(v.exitCode),
    error: isString(v.error) ? v.error : '',
    startedAt: num(v.startedAt, 0),
    endedAt: nullableNum(v.endedAt),
    durationMs: num(v.durationMs, 0),
    maxDurationMs: num(v.maxDurationMs, 0),
    cols: num(v.cols, 80),
    rows: num(v.rows, 24),
  }
}

/** The run list; runs that do not decode are left out rather than failing the whole list. */
export function decodeTerminalRunList(v: unknown): TerminalRunList | null {
  if (!isObject(v) || !isBoolean(v.enabled)) return null
  const runs: TerminalRun[] = []
  if (Array.isArray(v.runs)) {
    for (const item of v.runs) {
      const run = decodeTerminalRun(item)
      if (run !== null) runs.push(run)
    }
  } else if (v.runs !== undefined && v.runs !== null) {
    return null
  }
  return {
    enabled: v.enabled,
    tokenRequired: isBoolean(v.tokenRequired) ? v.tokenRequired : false,
    maxConcurrent: num(v.maxConcurrent, 0),
    maxDurationMs: num(v.maxDurationMs, 0),
    configPath: isString(v.configPath) ? v.configPath : '',
    runs,
  }
}

export function decodeScrollbackChunk(v: unknown): ScrollbackChunk | null {
  if (!isObject(v) || !isSeq(v.seq) || !isChunkEvent(v.event) || !isString(v.data)) return null
  return { seq: v.seq, event: v.event, data: v.data }
}

/** A run with its scrollback; a malformed chunk fails the whole answer (output must not silently go missing). */
export function decodeTerminalRunDetail(v: unknown): TerminalRunDetail | null {
  const run = decodeTerminalRun(v)
  if (run === null || !isObject(v)) return null
  const scrollback: ScrollbackChunk[] = []
  if (v.scrollback !== undefined && v.scrollback !== null) {
    if (!Array.isArray(v.scrollback)) return null
    for (const item of v.scrollback) {
      const chunk = decodeScrollbackChunk(item)
      if (chunk === null) return null
      scrollback.push(chunk)
    }
  }
  const lastChunkSeq = scrollback.reduce((max, c) => Math.max(max, c.seq), 0)
  return {
    ...run,
    lastSeq: isSeq(v.lastSeq) ? Math.max(v.lastSeq, lastChunkSeq) : lastChunkSeq,
    scrollbackTruncated: isBoolean(v.scrollbackTruncated) ? v.scrollbackTruncated : false,
    scrollback,
  }
}

export function decodeStartTerminalRun(v: unknown): StartTerminalRunResult | null {
  if (!isObject(v) || !isTerminalRunId(v.runId)) return null
  return { ok: isBoolean(v.ok) ? v.ok : true, runId: v.runId }
}

/** A terminal-output frame (its "type" already checked by the caller or not). */
export function decodeTerminalOutput(v: JsonObject): TerminalOutputMessage | null {
  const { runId, seq, event } = v
  if (!isTerminalRunId(runId) || !isSeq(seq) || !isString(event)) return null
  const base = { type: 'terminal-output' as const, runId, seq }
  switch (event) {
    case 'start':
      return {
        ...base,
        event,
        command: isString(v.command) ? v.command : '',
        maxDurationMs: num(v.maxDurationMs, 0),
      }
    case 'stdout':
    case 'stderr':
      return isString(v.data) ? { ...base, event, data: v.data } : null
    case 'timeout':
      return { ...base, event, maxDurationMs: num(v.maxDurationMs, 0) }
    case 'exit':
      return isNumber(v.code) && Number.isInteger(v.code) ? { ...base, event, code: v.code } : null
    case 'error':
      return { ...base, event, data: isString(v.data) ? v.data : 'the shell could not start' }
    default:
      return null
  }
}
