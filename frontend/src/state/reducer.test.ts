import { describe, expect, it } from 'vitest'
import type { AgentStatus } from '../api'
import { initialState, mergeStatus, reducer, restartBannerVisible } from './reducer'

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
  autonomyEnabled: false,
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

describe('missed /ws events', () => {
  it('drops the turn marks, which the next heartbeat of a turn still going sets again', () => {
    const beat = {
      type: 'heartbeat_event' as const,
      version: 1,
      eventId: 'evt-1',
      ts: 1,
      payload: { status: 'thinking', conversationId: 'c1', ts: 1 },
    }
    const busy = reducer(initialState, { type: 'envelope', envelope: beat })
    expect(busy.turns.c1?.status).toBe('thinking')
    const cleared = reducer(busy, { type: 'turns-cleared' })
    expect(cleared.turns).toEqual({})
    expect(cleared.activity).toBe(busy.activity)
    expect(reducer(cleared, { type: 'turns-cleared' })).toBe(cleared)
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

describe('restart banner and config frames', () => {
  const running: AgentStatus = { ...status, pendingRestart: false, pendingRestartReasons: [] }
  const loaded = reducer(initialState, { type: 'status-loaded', status: running })

  it('shows the banner for a restart-required frame or a pending status', () => {
    expect(restartBannerVisible(loaded)).toBe(false)
    const s = reducer(loaded, { type: 'restart-required', reasons: ['Shell access enabled'] })
    expect(s.status).toMatchObject({ pendingRestart: true, pendingRestartReasons: ['Shell access enabled'] })
    expect(restartBannerVisible(s)).toBe(true)
    const fromStatus = reducer(initialState, { type: 'status-loaded', status })
    expect(restartBannerVisible(fromStatus)).toBe(true)
    expect(reducer(initialState, { type: 'restart-required', reasons: ['x'] })).toBe(initialState)
  })

  it('hides the banner after "Later" until the reasons change', () => {
    let s = reducer(loaded, { type: 'restart-required', reasons: ['Shell access enabled'] })
    s = reducer(s, { type: 'restart-dismissed' })
    expect(restartBannerVisible(s)).toBe(false)
    // The periodic status frame repeats the same reasons: still hidden.
    const { pendingRestart: _p, pendingRestartReasons: _r, ...fields } = s.status!
    s = reducer(s, { type: 'status-frame', fields: { ...fields, pendingRestart: true, pendingRestartReasons: ['Shell access enabled'] } })
    expect(restartBannerVisible(s)).toBe(false)
    s = reducer(s, { type: 'restart-required', reasons: ['Shell access enabled', 'Server port changed: 2138 → 3000'] })
    expect(restartBannerVisible(s)).toBe(true)
  })

  it('restarts: "restarting", then the new status; a failure keeps the banner with the error', () => {
    let s = reducer(loaded, { type: 'restart-required', reasons: ['Shell access enabled'] })
    s = reducer(s, { type: 'restart-started' })
    expect(s.status?.state).toBe('restarting')
    expect(s.restart.restarting).toBe(true)
    expect(restartBannerVisible(s)).toBe(true)

    const failed = reducer(s, { type: 'restart-failed', message: 'a restart is already in progress' })
    expect(failed.restart).toMatchObject({ restarting: false, error: 'a restart is already in progress' })
    expect(restartBannerVisible(failed)).toBe(true)
    expect(reducer(failed, { type: 'restart-started' }).restart.error).toBeNull()

    const done = reducer(s, { type: 'restart-done', status: running })
    expect(done.status).toEqual(running)
    expect(done.restart).toEqual({ restarting: false, error: null, dismissed: null })
    expect(restartBannerVisible(done)).toBe(false)
  })

  it('keeps a config error until a status frame comes without one', () => {
    let s = reducer(loaded, { type: 'config-error', message: 'config /x/wisp.json is not valid JSON' })
    expect(s.status?.configError).toBe('config /x/wisp.json is not valid JSON')
    const { pendingRestart: _p, pendingRestartReasons: _r, configError: _c, ...fields } = s.status!
    s = reducer(s, { type: 'status-frame', fields: { ...fields, configError: 'still broken' } })
    expect(s.status?.configError).toBe('still broken')
    s = reducer(s, { type: 'status-frame', fields })
    expect(s.status).not.toHaveProperty('configError')
  })
})
