import { describe, expect, it } from 'vitest'
import type { StreamEnvelope } from '../api'
import { addActivity, type ActivityEntry } from './activity'

const env = (n: number, ts = n): StreamEnvelope => ({
  type: 'agent_event',
  version: 1,
  eventId: `evt-${n}`,
  ts,
  payload: { n },
})

describe('addActivity', () => {
  it('lists newest first and caps the length', () => {
    let list: ActivityEntry[] = []
    for (let i = 1; i <= 5; i++) list = addActivity(list, env(i), 3)
    expect(list.map((e) => e.envelope.eventId)).toEqual(['evt-5', 'evt-4', 'evt-3'])
  })

  it('ignores a replayed envelope but not a reused id from a restarted server', () => {
    let list = addActivity([], env(1, 100))
    const same = addActivity(list, env(1, 100))
    expect(same).toBe(list)
    list = addActivity(list, env(1, 200))
    expect(list).toHaveLength(2)
  })
})
