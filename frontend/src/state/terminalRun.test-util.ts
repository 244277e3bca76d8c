// A terminal run as the API describes it, for the terminal state tests.

import type { TerminalRun } from '../api/terminalTypes'

export function terminalRun(over: Partial<TerminalRun> = {}): TerminalRun {
  return {
    runId: 'run-1-aaaaaa',
    command: 'x',
    clientId: 'tab-1',
    agent: false,
    captured: false,
    status: 'running',
    exitCode: null,
    error: '',
    startedAt: 1,
    endedAt: null,
    durationMs: 0,
    maxDurationMs: 5000,
    cols: 80,
    rows: 24,
    ...over,
  }
}
