import { describe, expect, it } from 'vitest'
import { clipText, compactJSON, formatDuration, formatLocalTime, formatRelative, formatTimestamp } from './format'

describe('formatDuration', () => {
  it('shows the two largest units', () => {
    expect(formatDuration(0)).toBe('0s')
    expect(formatDuration(61_000)).toBe('1m 1s')
    expect(formatDuration(3_723_000)).toBe('1h 2m')
    expect(formatDuration(90_000_000)).toBe('1d 1h')
  })
})

describe('compactJSON', () => {
  it('is one line and cut at max', () => {
    expect(compactJSON({ a: [1, 2] })).toBe('{"a":[1,2]}')
    expect(compactJSON({ s: 'x'.repeat(50) }, 10)).toBe('{"s":"xxx…')
  })
})

describe('formatRelative', () => {
  const now = Date.parse('2026-11-21T14:00:00.000Z')
  const at = (s: number) => now + s * 1000

  it('says how far ahead a time is', () => {
    expect(formatRelative(at(0.2), now)).toBe('in 1 s')
    expect(formatRelative(at(3), now)).toBe('in 3 s')
    expect(formatRelative(at(2.1), now)).toBe('in 3 s')
    expect(formatRelative(at(5 * 60), now)).toBe('in 5 min')
    expect(formatRelative(at(90 * 60), now)).toBe('in 1 h 30 min')
    expect(formatRelative(at(2 * 3600), now)).toBe('in 2 h')
    expect(formatRelative(at(3 * 86400), now)).toBe('in 3 d')
    expect(formatRelative(at(26 * 3600), now)).toBe('in 1 d 2 h')
    expect(formatRelative(at(9 * 86400 + 5 * 3600), now)).toBe('in 9 d')
  })

  it('says how long ago a time was', () => {
    expect(formatRelative(at(-3), now)).toBe('just now')
    expect(formatRelative(at(0), now)).toBe('just now')
    expect(formatRelative(at(-42), now)).toBe('42 s ago')
    expect(formatRelative(at(-3 * 60), now)).toBe('3 min ago')
    expect(formatRelative(at(-5 * 3600), now)).toBe('5 h ago')
  })
})

describe('formatLocalTime', () => {
  it('shows the day only for another day', () => {
    const now = new Date(2026, 10, 21, 9, 0).getTime()
    const today = formatLocalTime(new Date(2026, 10, 21, 14, 5).getTime(), now)
    const later = formatLocalTime(new Date(2026, 10, 23, 14, 5).getTime(), now)
    expect(today).not.toContain(',')
    expect(later.endsWith(`, ${today}`)).toBe(true)
  })
})

describe('formatTimestamp', () => {
  it('writes the date and time as toLocaleString does, and nothing for a bad time', () => {
    const at = new Date(2026, 10, 21, 14, 5, 9).getTime()
    expect(formatTimestamp(at)).toBe(new Date(at).toLocaleString())
    expect(formatTimestamp(Number.NaN)).toBe('')
  })
})

describe('clipText', () => {
  it('cuts long text to max characters with an ellipsis, and leaves short text alone', () => {
    expect(clipText('short', 10)).toBe('short')
    expect(clipText('exactly 10', 10)).toBe('exactly 10')
    expect(clipText('a longer text', 10)).toBe('a longer …')
    expect(clipText('a longer text', 10)).toHaveLength(10)
  })

  it('never cuts a character in two', () => {
    expect(clipText('ab\u{1f600}cd', 4)).toBe('ab…')
    expect(clipText('ab\u{1f600}cd', 5)).toBe('ab\u{1f600}…')
  })
})
