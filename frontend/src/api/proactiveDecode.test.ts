import { describe, expect, it } from 'vitest'
import { decodeServerMessage, decodeStatus } from './decode'
import { decodeAutonomy, decodeReminder, decodeReminderList } from './proactiveDecode'

const message = {
  id: 'm1',
  role: 'assistant',
  text: 'Reminder: stretch',
  timestamp: 1708000000000,
  source: 'reminder',
  reminderId: 'r1',
  late: false,
}

const reminder = {
  id: 'r1',
  conversationId: 'c1',
  text: 'stretch',
  at: '2026-11-21T14:05:00.000Z',
  createdAt: '2026-11-21T13:35:00.000Z',
  status: 'pending',
  late: false,
}

const delivered = {
  ...reminder,
  status: 'delivered',
  late: true,
  deliveredAt: '2026-11-21T14:20:00.000Z',
  messageId: 'm1',
}

const frame = (v: unknown) => decodeServerMessage(JSON.stringify(v))

describe('proactive-message frames', () => {
  it('decodes the frame of the contract', () => {
    expect(frame({ type: 'proactive-message', conversationId: 'c1', message })).toEqual({
      type: 'proactive-message',
      conversationId: 'c1',
      message,
    })
  })

  it('leaves reminderId and late out for other sources', () => {
    const autonomy = { id: 'm2', role: 'assistant', text: 'Build done?', timestamp: 5, source: 'autonomy' }
    expect(frame({ type: 'proactive-message', conversationId: 'c1', message: autonomy })).toEqual({
      type: 'proactive-message',
      conversationId: 'c1',
      message: autonomy,
    })
  })

  it('rejects frames without a conversation or an assistant message that says where it came from', () => {
    const bad = [
      { message },
      { conversationId: 'c1' },
      { conversationId: 'c1', message: { ...message, role: 'user' } },
      { conversationId: 'c1', message: { ...message, source: '' } },
      { conversationId: 'c1', message: { ...message, late: 'yes' } },
    ]
    for (const v of bad) expect(frame({ type: 'proactive-message', ...v }), JSON.stringify(v)).toBeNull()
  })
})

describe('reminders', () => {
  it('decodes pending and delivered reminders', () => {
    expect(decodeReminder(reminder)).toEqual(reminder)
    expect(decodeReminder(delivered)).toEqual(delivered)
  })

  it('reads a deleted conversation as null', () => {
    expect(decodeReminder({ ...reminder, conversationId: null })?.conversationId).toBeNull()
  })

  it('rejects what is not its shape (wire.gen.test.ts checks every field)', () => {
    for (const v of [{ ...reminder, status: 'snoozed' }, 'r1', null]) expect(decodeReminder(v), JSON.stringify(v)).toBeNull()
  })

  it('decodes the list as a whole or not at all', () => {
    expect(decodeReminderList({ reminders: [reminder, delivered] })).toEqual([reminder, delivered])
    expect(decodeReminderList({ reminders: [] })).toEqual([])
    expect(decodeReminderList({ reminders: [reminder, { id: 'x' }] })).toBeNull()
    expect(decodeReminderList([reminder])).toBeNull()
    expect(decodeReminderList({})).toBeNull()
  })

  it('decodes reminder-updated and reminder-deleted frames', () => {
    expect(frame({ type: 'reminder-updated', reminder: delivered })).toEqual({ type: 'reminder-updated', reminder: delivered })
    expect(frame({ type: 'reminder-deleted', id: 'r1' })).toEqual({ type: 'reminder-deleted', id: 'r1' })
    expect(frame({ type: 'reminder-updated', reminder: { id: 'r1' } })).toBeNull()
    expect(frame({ type: 'reminder-updated' })).toBeNull()
    expect(frame({ type: 'reminder-deleted' })).toBeNull()
  })
})

describe('autonomy', () => {
  const state = { enabled: true, intervalMs: 30000, maxPerHour: 4, cooldownMs: 120000, sentLastHour: 1 }

  it('decodes the state, with its tick times when it has them', () => {
    expect(decodeAutonomy(state)).toEqual(state)
    expect(decodeAutonomy({ ...state, lastTickAt: 1000, nextTickAt: 31000 })).toEqual({ ...state, lastTickAt: 1000, nextTickAt: 31000 })
  })

  it('rejects a state without its settings', () => {
    for (const key of ['enabled', 'intervalMs', 'maxPerHour', 'cooldownMs'] as const) {
      const { [key]: _drop, ...rest } = state
      expect(decodeAutonomy(rest), key).toBeNull()
    }
    expect(decodeAutonomy({ ...state, enabled: 'yes' })).toBeNull()
    expect(decodeAutonomy([])).toBeNull()
  })

  it('reads autonomyEnabled from status, false when a server leaves it out', () => {
    const status = { state: 'running', agentName: 'W', model: 'm', canRespond: true, startedAt: 1, uptime: 2 }
    expect(decodeStatus({ ...status, autonomyEnabled: true })?.autonomyEnabled).toBe(true)
    expect(decodeStatus(status)?.autonomyEnabled).toBe(false)
    const msg = frame({ type: 'status', ...status, autonomyEnabled: true })
    expect(msg).toMatchObject({ type: 'status', autonomyEnabled: true })
    // A frame that does not say keeps the field out, so the reducer keeps what it knew.
    expect(frame({ type: 'status', ...status })).not.toHaveProperty('autonomyEnabled')
  })
})
