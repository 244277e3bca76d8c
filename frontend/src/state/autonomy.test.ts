import { describe, expect, it } from 'vitest'
import { describeAutonomy } from './autonomy'

const base = { enabled: true, intervalMs: 30_000, maxPerHour: 4, cooldownMs: 120_000, sentLastHour: 1 }

describe('describeAutonomy', () => {
  it('says it is off', () => {
    expect(describeAutonomy({ ...base, enabled: false }, 0)).toMatch(/^Off:/)
  })

  it('gives the interval in effect, the hourly count and the next check', () => {
    expect(describeAutonomy(base, 0)).toBe('On: checks every 30 s, 1 of 4 messages in the last hour.')
    expect(describeAutonomy({ ...base, intervalMs: 600_000 }, 0)).toContain('checks every 10 min')
    expect(describeAutonomy({ ...base, nextTickAt: 12_000 }, 0)).toContain('next check in 12 s (')
  })
})
