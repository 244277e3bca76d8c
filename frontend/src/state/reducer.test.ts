import { describe, expect, it } from 'vitest'
import type { AgentStatus } from '../api'
import { initialState, mergeStatus, reducer } from './reducer'

const status: AgentStatus = {
  state: 'running',
  agentName: 'Wisp',
  model: 'm',
  canRespond: false,
  canRespondReason: 'no key',
  startedAt: 1,
  uptime: 1,
  pendingRestart: true,
  pendingRestartReasons: ['port changed'],
}

describe('reducer', () => {
  it('marks the API ready and hides the token prompt once status loads', () => {
    let s = reducer(initialState, { type: 'token-required' })
    expect(s.tokenPrompt).toBe('required')
    s = reducer(s, { type: 'token-rejected' })
    s = reducer(s, { type: 'token-required' })
    expect(s.tokenPrompt).toBe('rejected')
    s = reducer(s, { type: 'status-loaded', status })
    expect(s).toMatchObject({ apiReady: true, tokenPrompt: 'hidden', status })
  })

  it('merges status frames, keeping pendingRestart from earlier when a frame lacks it', () => {
    const { pendingRestart: _p, pendingRestartReasons: _r, canRespondReason: _c, ...first } = status
    const merged = mergeStatus(status, { ...first, canRespond: true, uptime: 9 })
    expect(merged).toEqual({ ...first, canRespond: true, uptime: 9, pendingRestart: true, pendingRestartReasons: ['port changed'] })
    expect('canRespondReason' in merged).toBe(false)
  })
})

describe('token changes', () => {
  it('re-checks the API after a new token is submitted', () => {
    const ready = reducer(initialState, { type: 'status-loaded', status })
    const s = reducer(reducer(ready, { type: 'token-rejected' }), { type: 'token-submitted' })
    expect(s.apiReady).toBe(false)
    expect(s.tokenPrompt).toBe('rejected')
    expect(reducer(s, { type: 'status-loaded', status }).tokenPrompt).toBe('hidden')
  })
})
