import { describe, expect, it } from 'vitest'
import type { TerminalOutputMessage, TerminalRun, TerminalRunDetail } from '../api/terminalTypes'
import {
  MAX_HELD_EVENTS,
  TRUNCATED_NOTE,
  adoptRunInfo,
  applyEvent,
  applySnapshot,
  beginSync,
  markKillRequested,
  restartSync,
  type RunSync,
} from './terminalSync'
import { terminalRun } from './terminalRun.test-util'

const R = 'run-1'

const out = (seq: number, data: string, runId = R): TerminalOutputMessage => ({
  type: 'terminal-output',
  runId,
  seq,
  event: 'stdout',
  data,
})
const err = (seq: number, data: string): TerminalOutputMessage => ({ type: 'terminal-output', runId: R, seq, event: 'stderr', data })
const start = (seq = 1): TerminalOutputMessage => ({
  type: 'terminal-output',
  runId: R,
  seq,
  event: 'start',
  command: 'x',
  maxDurationMs: 5000,
})
const exit = (seq: number, code: number): TerminalOutputMessage => ({ type: 'terminal-output', runId: R, seq, event: 'exit', code })
const timeout = (seq: number): TerminalOutputMessage => ({
  type: 'terminal-output',
  runId: R,
  seq,
  event: 'timeout',
  maxDurationMs: 5000,
})
const failed = (seq: number, data: string): TerminalOutputMessage => ({ type: 'terminal-output', runId: R, seq, event: 'error', data })

const baseRun: TerminalRun = terminalRun({ runId: R })

function detail(lastSeq: number, chunks: [number, string][], over: Partial<TerminalRunDetail> = {}): TerminalRunDetail {
  return {
    ...baseRun,
    lastSeq,
    scrollbackTruncated: false,
    scrollback: chunks.map(([seq, data]) => ({ seq, event: 'stdout' as const, data })),
    ...over,
  }
}

/** Feeds events, collecting everything written. */
function feed(sync: RunSync, events: TerminalOutputMessage[]): { sync: RunSync; written: string } {
  let written = ''
  for (const ev of events) {
    const step = applyEvent(sync, ev)
    sync = step.sync
    written += step.writes.join('')
  }
  return { sync, written }
}

function live(over: Partial<RunSync> = {}): RunSync {
  return { ...beginSync(R), phase: 'live', ...over }
}

describe('terminal sync', () => {
  it('holds live events while the scrollback loads and writes nothing yet', () => {
    const { sync, written } = feed(beginSync(R), [out(2, 'a'), out(3, 'b')])
    expect(written).toBe('')
    expect(sync.phase).toBe('loading')
    expect(sync.held.map((e) => e.seq)).toEqual([2, 3])
  })

  it('writes the scrollback in seq order, then only newer held events, each once', () => {
    let sync = feed(beginSync(R), [out(3, 'c'), out(4, 'd'), out(4, 'd'), out(5, 'e')]).sync
    const step = applySnapshot(sync, detail(3, [[3, 'c'], [2, 'b'], [1, 'a']]))
    expect(step.reset).toBe(true)
    expect(step.resync).toBe(false)
    expect(step.writes.join('')).toBe('abcde')
    sync = step.sync
    expect(sync.phase).toBe('live')
    expect(sync.lastSeq).toBe(5)
    expect(sync.held).toEqual([])
  })

  it('ignores live events at or below lastSeq (dedupe) and applies the next ones', () => {
    const sync = applySnapshot(beginSync(R), detail(4, [[2, 'ab'], [3, 'c']])).sync
    const r = feed(sync, [out(3, 'c'), out(4, 'x'), out(5, 'd'), out(5, 'd'), err(6, 'E')])
    expect(r.written).toBe('dE')
    expect(r.sync.lastSeq).toBe(6)
  })

  it('drops scrollback chunks repeated with the same seq', () => {
    const step = applySnapshot(beginSync(R), detail(3, [[2, 'a'], [2, 'a'], [3, 'b']]))
    expect(step.writes).toEqual(['a', 'b'])
  })

  it('marks a truncated scrollback', () => {
    const step = applySnapshot(beginSync(R), detail(9, [[9, 'tail']], { scrollbackTruncated: true }))
    expect(step.writes).toEqual([TRUNCATED_NOTE, 'tail'])
  })

  it('leaves events of other runs alone', () => {
    const sync = live()
    const step = applyEvent(sync, out(1, 'x', 'run-2'))
    expect(step.sync).toBe(sync)
    expect(step.writes).toEqual([])
    expect(applySnapshot(sync, { ...detail(1, []), runId: 'run-2' }).sync).toBe(sync)
  })

  it('asks for a fresh scrollback when a live seq is skipped', () => {
    const sync = live({ lastSeq: 3 })
    const step = applyEvent(sync, out(5, 'e'))
    expect(step.resync).toBe(true)
    expect(step.writes).toEqual([])
    expect(step.sync.phase).toBe('loading')
    expect(step.sync.held.map((e) => e.seq)).toEqual([5])
    const again = applySnapshot(step.sync, detail(4, [[4, 'd']]))
    expect(again.writes.join('')).toBe('de')
    expect(again.sync.lastSeq).toBe(5)
  })

  it('asks again when held events still do not join the scrollback', () => {
    const sync = feed(beginSync(R), [out(7, 'g')]).sync
    const step = applySnapshot(sync, detail(4, [[4, 'd']]))
    expect(step.reset).toBe(true)
    expect(step.resync).toBe(true)
    expect(step.writes).toEqual(['d'])
    expect(step.sync.phase).toBe('loading')
    expect(step.sync.held.map((e) => e.seq)).toEqual([7])
  })

  it('caps the held events', () => {
    let sync = beginSync(R)
    for (let i = 1; i <= MAX_HELD_EVENTS + 10; i++) sync = applyEvent(sync, out(i, '.')).sync
    expect(sync.held).toHaveLength(MAX_HELD_EVENTS)
    expect(sync.held[0]?.seq).toBe(11)
  })

  it('keeps held events when it starts over for the same run', () => {
    const sync = feed(beginSync(R), [out(2, 'b')]).sync
    expect(restartSync(sync).held).toHaveLength(1)
    expect(restartSync(live()).phase).toBe('loading')
  })

  describe('status transitions', () => {
    it('start → running, exit → exited with the code', () => {
      let r = feed(live({ status: 'exited' }), [start(1)])
      expect(r.sync.status).toBe('running')
      expect(r.sync.maxDurationMs).toBe(5000)
      r = feed(r.sync, [out(2, 'x'), exit(3, 130)])
      expect(r.sync).toMatchObject({ status: 'exited', exitCode: 130 })
    })

    it('timeout stays timeout through its exit 124', () => {
      const r = feed(live(), [start(1), timeout(2), exit(3, 124)])
      expect(r.sync).toMatchObject({ status: 'timeout', exitCode: 124, maxDurationMs: 5000 })
    })

    it('error → error with its reason and no exit code', () => {
      const r = feed(live(), [start(1), failed(2, 'exec: no such file')])
      expect(r.sync).toMatchObject({ status: 'error', error: 'exec: no such file', exitCode: null })
    })

    it('an exit after a requested kill with a signal code reads killed', () => {
      const r = feed(markKillRequested(feed(live(), [start(1)]).sync), [exit(2, 143)])
      expect(r.sync).toMatchObject({ status: 'killed', exitCode: 143 })
      const normal = feed(markKillRequested(live()), [exit(1, 0)])
      expect(normal.sync.status).toBe('exited')
    })

    it('takes the status from the scrollback, then from newer held events', () => {
      const sync = feed(beginSync(R), [exit(5, 2)]).sync
      const step = applySnapshot(sync, detail(4, [[2, 'x']], { status: 'running' }))
      expect(step.sync).toMatchObject({ status: 'exited', exitCode: 2, lastSeq: 5 })
      const ended = applySnapshot(beginSync(R), detail(3, [], { status: 'killed', exitCode: 143, captured: true }))
      expect(ended.sync).toMatchObject({ status: 'killed', exitCode: 143, captured: true })
    })

    it('adopts an end the server reports, never a running state over an end', () => {
      const running = live()
      const killed: TerminalRun = { ...baseRun, status: 'killed', exitCode: 143 }
      expect(adoptRunInfo(running, killed)).toMatchObject({ status: 'killed', exitCode: 143 })
      const exited = feed(running, [exit(1, 143)]).sync
      expect(adoptRunInfo(exited, killed).status).toBe('killed')
      expect(adoptRunInfo(exited, { ...baseRun, status: 'running' })).toBe(exited)
      expect(adoptRunInfo(running, { ...killed, runId: 'run-2' })).toBe(running)
      const same = adoptRunInfo(running, killed)
      expect(adoptRunInfo(same, killed)).toBe(same)
      // a late exit event does not turn the adopted "killed" back into "exited"
      expect(feed(same, [exit(1, 143)]).sync.status).toBe('killed')
    })
  })
})
