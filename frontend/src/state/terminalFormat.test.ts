import { describe, expect, it } from 'vitest'
import {
  MAX_INPUT_BYTES,
  commandProblem,
  formatLimit,
  formatRunStatus,
  mentionsTerminalToken,
  runBadge,
  runTone,
  splitInput,
} from './terminalFormat'

describe('formatLimit', () => {
  it('reads like a person would say it', () => {
    expect(formatLimit(5000)).toBe('5 s')
    expect(formatLimit(1500)).toBe('1.5 s')
    expect(formatLimit(59_000)).toBe('59 s')
    expect(formatLimit(60_000)).toBe('1 min')
    expect(formatLimit(90_000)).toBe('1 min 30 s')
    expect(formatLimit(300_000)).toBe('5 min')
    expect(formatLimit(3_600_000)).toBe('1 h')
    expect(formatLimit(5_400_000)).toBe('1 h 30 min')
    expect(formatLimit(0)).toBe('0 s')
    expect(formatLimit(Number.NaN)).toBe('0 s')
  })
})

describe('formatRunStatus', () => {
  const facts = { exitCode: null, error: '', maxDurationMs: 5000 }
  it('says how the run went', () => {
    expect(formatRunStatus({ ...facts, status: 'running' })).toBe('Running…')
    expect(formatRunStatus({ ...facts, status: 'exited', exitCode: 0 })).toBe('Exited with 0')
    expect(formatRunStatus({ ...facts, status: 'exited', exitCode: 130 })).toBe('Exited with 130')
    expect(formatRunStatus({ ...facts, status: 'exited' })).toBe('Exited')
    expect(formatRunStatus({ ...facts, status: 'timeout', exitCode: 124 })).toBe('Timed out after 5 s (exit 124)')
    expect(formatRunStatus({ ...facts, status: 'timeout', maxDurationMs: 0 })).toBe('Timed out (exit 124)')
    expect(formatRunStatus({ ...facts, status: 'killed', exitCode: 143 })).toBe('Killed (exit 143)')
    expect(formatRunStatus({ ...facts, status: 'error', error: 'fork/exec /bin/zsh: no such file' })).toBe(
      'Could not start: fork/exec /bin/zsh: no such file',
    )
    expect(formatRunStatus({ ...facts, status: 'error' })).toBe('Could not start: unknown error')
  })
})

describe('run badges', () => {
  it('labels and tones', () => {
    expect(runBadge('running')).toBe('running')
    expect(runBadge('timeout')).toBe('timed out')
    expect(runBadge('error')).toBe('failed')
    expect(runTone('running', null)).toBe('live')
    expect(runTone('exited', 0)).toBe('ok')
    expect(runTone('exited', 1)).toBe('bad')
    expect(runTone('killed', 143)).toBe('bad')
  })
})

describe('mentionsTerminalToken', () => {
  it('tells a terminal token refusal from an API token one', () => {
    expect(mentionsTerminalToken('missing or wrong X-Terminal-Token')).toBe(true)
    expect(mentionsTerminalToken('terminal token required')).toBe(true)
    expect(mentionsTerminalToken('unauthorized')).toBe(false)
    expect(mentionsTerminalToken('missing or invalid API token')).toBe(false)
  })
})

describe('commandProblem', () => {
  it('checks what the server checks', () => {
    expect(commandProblem('ls')).toBeNull()
    expect(commandProblem('   ')).toMatch(/Type a command/)
    expect(commandProblem('a'.repeat(4097))).toMatch(/4096/)
    expect(commandProblem(`  ${'a'.repeat(4096)}  `)).toBeNull()
    expect(commandProblem('ls\nrm')).toMatch(/one line/)
    expect(commandProblem('ls\0')).toMatch(/one line/)
    // characters, as the server counts them, not UTF-16 units
    expect(commandProblem('😀'.repeat(4096))).toBeNull()
    expect(commandProblem('😀'.repeat(4097))).toMatch(/4096/)
  })
})

describe('splitInput', () => {
  it('keeps keystrokes whole', () => {
    expect(splitInput('h')).toEqual(['h'])
    expect(splitInput('\r')).toEqual(['\r'])
    expect(splitInput('')).toEqual([])
  })

  it('cuts a long paste into pieces of at most 8 KiB of UTF-8, never inside a character', () => {
    const paste = 'aé€😀'.repeat(2000) // 10 bytes per repeat
    const pieces = splitInput(paste)
    expect(pieces.join('')).toBe(paste)
    expect(pieces.length).toBe(3)
    const enc = new TextEncoder()
    for (const p of pieces) {
      expect(enc.encode(p).length).toBeLessThanOrEqual(MAX_INPUT_BYTES)
      expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p)).toBe(false)
    }
    expect(splitInput('abcdef', 4)).toEqual(['abcd', 'ef'])
    expect(splitInput('ab😀', 4)).toEqual(['ab', '😀'])
  })
})
