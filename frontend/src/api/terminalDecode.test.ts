import { describe, expect, it } from 'vitest'
import { decodeServerMessage } from './decode'
import {
  decodeStartTerminalRun,
  decodeTerminalOutput,
  decodeTerminalRun,
  decodeTerminalRunDetail,
  decodeTerminalRunList,
} from './terminalDecode'

const run = {
  runId: 'run-1708000000000-a1b2c3',
  command: 'make test',
  clientId: 'tab-1',
  agent: false,
  captured: false,
  status: 'running',
  exitCode: null,
  error: '',
  startedAt: 1708000000000,
  endedAt: null,
  durationMs: 1200,
  maxDurationMs: 300000,
  cols: 120,
  rows: 30,
}

describe('decodeTerminalRun', () => {
  it('decodes a RunInfo of the contract', () => {
    expect(decodeTerminalRun(run)).toEqual(run)
    expect(decodeTerminalRun({ ...run, status: 'exited', exitCode: 0, endedAt: 1708000001200 })).toMatchObject({
      status: 'exited',
      exitCode: 0,
      endedAt: 1708000001200,
    })
  })

  it('rejects a run without its identity or with an unknown status', () => {
    expect(decodeTerminalRun(null)).toBeNull()
    expect(decodeTerminalRun([run])).toBeNull()
    expect(decodeTerminalRun({ ...run, runId: undefined })).toBeNull()
    expect(decodeTerminalRun({ ...run, runId: '../../etc' })).toBeNull()
    expect(decodeTerminalRun({ ...run, runId: 'x'.repeat(200) })).toBeNull()
    expect(decodeTerminalRun({ ...run, command: 42 })).toBeNull()
    expect(decodeTerminalRun({ ...run, status: 'dancing' })).toBeNull()
    expect(decodeTerminalRun({ ...run, status: '__proto__' })).toBeNull()
  })

  it('falls back to neutral values for odd secondary fields', () => {
    const odd = decodeTerminalRun({
      runId: 'run-2',
      command: 'ls',
      status: 'error',
      exitCode: 'zero',
      agent: 'yes',
      captured: 1,
      error: { x: 1 },
      startedAt: -5,
      durationMs: Number.NaN,
      cols: '80',
    })
    expect(odd).toEqual({
      runId: 'run-2',
      command: 'ls',
      clientId: '',
      agent: false,
      captured: false,
      status: 'error',
      exitCode: null,
      error: '',
      startedAt: 0,
      endedAt: null,
      durationMs: 0,
      maxDurationMs: 0,
      cols: 80,
      rows: 24,
    })
  })
})

describe('decodeTerminalRunList', () => {
  const list = {
    enabled: true,
    tokenRequired: false,
    maxConcurrent: 2,
    maxDurationMs: 300000,
    configPath: '/home/me/.local/state/wisp/wisp.json',
    runs: [run],
  }

  it('decodes the list and leaves out runs that do not decode', () => {
    expect(decodeTerminalRunList(list)).toEqual(list)
    expect(decodeTerminalRunList({ ...list, runs: [run, { runId: 5 }, 'x', null] })?.runs).toEqual([run])
    expect(decodeTerminalRunList({ enabled: false, configPath: '/c/wisp.json' })).toEqual({
      enabled: false,
      tokenRequired: false,
      maxConcurrent: 0,
      maxDurationMs: 0,
      configPath: '/c/wisp.json',
      runs: [],
    })
  })

  it('rejects answers that are not a run list', () => {
    expect(decodeTerminalRunList(undefined)).toBeNull()
    expect(decodeTerminalRunList({ runs: [] })).toBeNull()
    expect(decodeTerminalRunList({ enabled: 'true', runs: [] })).toBeNull()
    expect(decodeTerminalRunList({ enabled: true, runs: { 0: run } })).toBeNull()
  })
})

describe('decodeTerminalRunDetail', () => {
  const detail = {
    ...run,
    lastSeq: 42,
    scrollbackTruncated: false,
    scrollback: [
      { seq: 2, event: 'stdout', data: 'a' },
      { seq: 3, event: 'stderr', data: 'b' },
    ],
  }

  it('decodes the run with its scrollback', () => {
    expect(decodeTerminalRunDetail(detail)).toEqual(detail)
  })

  it('never reports a lastSeq below its own scrollback', () => {
    expect(decodeTerminalRunDetail({ ...detail, lastSeq: 1 })?.lastSeq).toBe(3)
    expect(decodeTerminalRunDetail({ ...detail, lastSeq: 'many' })?.lastSeq).toBe(3)
    expect(decodeTerminalRunDetail({ ...run })).toMatchObject({ lastSeq: 0, scrollback: [], scrollbackTruncated: false })
  })

  it('fails as a whole on a malformed chunk rather than dropping output', () => {
    expect(decodeTerminalRunDetail({ ...detail, scrollback: [{ seq: 2, event: 'stdout' }] })).toBeNull()
    expect(decodeTerminalRunDetail({ ...detail, scrollback: [{ seq: -1, event: 'stdout', data: '' }] })).toBeNull()
    expect(decodeTerminalRunDetail({ ...detail, scrollback: [{ seq: 1.5, event: 'stdout', data: '' }] })).toBeNull()
    expect(decodeTerminalRunDetail({ ...detail, scrollback: [{ seq: 2, event: 'exit', data: '' }] })).toBeNull()
    expect(decodeTerminalRunDetail({ ...detail, scrollback: 'abc' })).toBeNull()
  })
})

describe('decodeStartTerminalRun', () => {
  it('needs a run id', () => {
    expect(decodeStartTerminalRun({ ok: true, runId: 'run-1' })).toEqual({ ok: true, runId: 'run-1' })
    expect(decodeStartTerminalRun({ ok: true })).toBeNull()
    expect(decodeStartTerminalRun({ ok: true, runId: 'a/b' })).toBeNull()
    expect(decodeStartTerminalRun('run-1')).toBeNull()
  })
})

describe('terminal-output frames', () => {
  const frame = (extra: object) => JSON.stringify({ type: 'terminal-output', runId: 'run-1', seq: 1, ...extra })

  it('decodes every event of the contract', () => {
    expect(decodeServerMessage(frame({ event: 'start', command: 'ls', maxDurationMs: 5000 }))).toEqual({
      type: 'terminal-output',
      runId: 'run-1',
      seq: 1,
      event: 'start',
      command: 'ls',
      maxDurationMs: 5000,
    })
    expect(decodeServerMessage(frame({ event: 'stdout', data: '\x1b[31mred\x1b[0m\r\n' }))).toMatchObject({
      event: 'stdout',
      data: '\x1b[31mred\x1b[0m\r\n',
    })
    expect(decodeServerMessage(frame({ event: 'stderr', data: 'oops' }))).toMatchObject({ event: 'stderr', data: 'oops' })
    expect(decodeServerMessage(frame({ event: 'timeout', maxDurationMs: 1000 }))).toMatchObject({
      event: 'timeout',
      maxDurationMs: 1000,
    })
    expect(decodeServerMessage(frame({ event: 'exit', code: 143 }))).toMatchObject({ event: 'exit', code: 143 })
    expect(decodeServerMessage(frame({ event: 'error', data: 'no such shell' }))).toMatchObject({
      event: 'error',
      data: 'no such shell',
    })
  })

  it('drops extra fields', () => {
    expect(decodeTerminalOutput({ type: 'terminal-output', runId: 'r', seq: 2, event: 'stdout', data: 'x', evil: 1 })).toEqual({
      type: 'terminal-output',
      runId: 'r',
      seq: 2,
      event: 'stdout',
      data: 'x',
    })
  })

  it('rejects hostile or incomplete frames', () => {
    expect(decodeServerMessage(frame({ event: 'stdout' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'stdout', data: ['x'] }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'exit' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'exit', code: 1.5 }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'dance' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'toString' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'stdout', data: 'x', seq: -1 }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'stdout', data: 'x', seq: '3' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'stdout', data: 'x', runId: '' }))).toBeNull()
    expect(decodeServerMessage(frame({ event: 'stdout', data: 'x', runId: null }))).toBeNull()
    expect(decodeServerMessage('{"type":"terminal-output","runId":"r","seq":1e400,"event":"stdout","data":""}')).toBeNull()
  })
})
