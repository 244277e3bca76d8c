import { describe, expect, it } from 'vitest'
import { backoffDelay, isProbing } from './backoff'

describe('backoffDelay', () => {
  it('starts at 500 ms and grows by 1.5x', () => {
    expect([0, 1, 2, 3, 4].map(backoffDelay)).toEqual([500, 750, 1125, 1687.5, 2531.25])
  })

  it('is capped at 10 s during the fast attempts', () => {
    expect(backoffDelay(7)).toBeCloseTo(8542.97, 1)
    expect(backoffDelay(8)).toBe(10_000)
    expect(backoffDelay(14)).toBe(10_000)
  })

  it('probes every 30 s after 15 fast attempts, forever', () => {
    const fast = Array.from({ length: 15 }, (_, i) => backoffDelay(i))
    expect(fast.every((d) => d <= 10_000)).toBe(true)
    expect(backoffDelay(15)).toBe(30_000)
    expect(backoffDelay(16)).toBe(30_000)
    expect(backoffDelay(1_000)).toBe(30_000)
    expect(isProbing(14)).toBe(false)
    expect(isProbing(15)).toBe(true)
  })
})
