import { describe, expect, it } from 'vitest'
import { compactJSON, formatDuration } from './format'

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
