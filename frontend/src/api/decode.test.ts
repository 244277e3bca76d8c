import { describe, expect, it } from 'vitest'
import { decodeServerMessage, decodeStatus } from './decode'

describe('decodeServerMessage', () => {
  it('decodes an envelope and keeps optional fields', () => {
    const msg = decodeServerMessage(
      JSON.stringify({
        type: 'heartbeat_event',
        version: 1,
        eventId: 'evt-3',
        ts: 10,
        runId: 'r',
        seq: 2,
        stream: 'system',
        payload: { status: 'thinking' },
        extra: 'dropped',
      }),
    )
    expect(msg).toEqual({
      type: 'heartbeat_event',
      version: 1,
      eventId: 'evt-3',
      ts: 10,
      runId: 'r',
      seq: 2,
      stream: 'system',
      payload: { status: 'thinking' },
    })
  })

  it('rejects known types without their required fields', () => {
    expect(decodeServerMessage('{"type":"training_event","eventId":"evt-1","ts":1,"payload":[]}')).toBeNull()
    expect(decodeServerMessage('{"type":"status","state":"dancing"}')).toBeNull()
    expect(decodeServerMessage('[]')).toBeNull()
    expect(decodeServerMessage('{"type":5}')).toBeNull()
  })

  it('passes unknown types through whole', () => {
    expect(decodeServerMessage('{"type":"future-frame","reasons":["x"]}')).toEqual({
      type: 'future-frame',
      reasons: ['x'],
    })
  })

  it('decodes the first status frame, which lacks pendingRestart', () => {
    const msg = decodeServerMessage(
      '{"type":"status","state":"running","agentName":"W","model":"m","canRespond":true,"startedAt":1,"uptime":2}',
    )
    expect(msg).toEqual({ type: 'status', state: 'running', agentName: 'W', model: 'm', canRespond: true, startedAt: 1, uptime: 2 })
  })
})

describe('decodeStatus', () => {
  it('fills pendingRestart defaults', () => {
    expect(
      decodeStatus({ state: 'paused', agentName: 'W', model: '', canRespond: true, startedAt: 0, uptime: 0 }),
    ).toMatchObject({ pendingRestart: false, pendingRestartReasons: [] })
  })

  it('keeps a known confinement with its reason and drops an unknown one', () => {
    const base = { state: 'running', agentName: 'W', model: '', canRespond: true, startedAt: 0, uptime: 0 }
    expect(decodeStatus({ ...base, confinement: 'partial', confinementReason: 'ABI 3' })).toMatchObject({
      confinement: 'partial',
      confinementReason: 'ABI 3',
    })
    const odd = decodeStatus({ ...base, confinement: 'mostly', confinementReason: 'x' })
    expect(odd).not.toBeNull()
    expect(odd).not.toHaveProperty('confinement')
    expect(odd).not.toHaveProperty('confinementReason')
  })
})
