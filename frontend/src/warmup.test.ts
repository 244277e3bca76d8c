import { describe, expect, it } from 'vitest'
import { WARM_STEPS, warmUpWhenIdle } from './warmup'

describe('warmUpWhenIdle', () => {
  it('runs one step per idle period, in order, and goes on past a step that throws', () => {
    const idle: (() => void)[] = []
    const ran: string[] = []
    const steps = [
      () => ran.push('a'),
      () => {
        throw new Error('boom')
      },
      () => ran.push('c'),
    ]
    warmUpWhenIdle((fn) => idle.push(fn), steps)
    expect(ran).toEqual([])
    for (let i = 0; i < 3; i++) {
      expect(idle).toHaveLength(1)
      idle.shift()?.()
    }
    expect(ran).toEqual(['a', 'c'])
    expect(idle).toHaveLength(0)
  })

  it('has steps that run without error', () => {
    expect(WARM_STEPS.length).toBeGreaterThan(1)
    for (const step of WARM_STEPS) expect(step).not.toThrow()
  })
})
