import { describe, expect, it } from 'vitest'
import { decodeServerMessage, decodeStatus } from './decode'
import { decodeAutonomy, decodeProactiveMessage, decodeReminder, decodeReminderList } from './proactiveDecode'

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

  it('rejects frames without a conversation or a whole assistant message', () => {
    const bad = [
      { message },
      { conversationId: '', message },
      { conversationId: 'c1' },
      { conversationId: 'c1', message: { ...message, role: 'user' } },
      { conversationId: 'c1', message: { ...message, source: undefined } },
      { conversationId: 'c1', message: { ...message, source: '' } },
      { conversationId: 'c1', message: { ...message, id: '' } },
      { conversationId: 'c1', message: { ...message, text: 5 } },
      { conversationId: 'c1', message: { ...message, timestamp: 'soon' } },
      { conversationId: 7, message },
    ]
    for (const v of bad) expect(frame({ type: 'proactive-message', ...v }), JSON.stringify(v)).toBeNull()
  })

  it('drops a late flag that is not a boolean rather than the message', () => {
    expect(decodeProactiveMessage({ ...message, late: 'yes' })).not.toHaveProperty('late')
  })
})

describe('reminders', () => {
  it('decodes pending and delivered reminders', () => {
    expect(decodeReminder(reminder)).toEqual(reminder)
    expect(decodeReminder(delivered)).toEqual(delivered)
  })

  it('reads a deleted conversation (null or missing) as null', () => {
    expect(decodeReminder({ ...reminder, conversationId: null })?.conversationId).toBeNull()
    const { conversationId: _c, ...none } = reminder
    expect(decodeReminder(none)?.conversationId).toBeNull()
  })

  it('treats a missing late as false', () => {
    const { late: _l, ...older } = reminder
    expect(decodeReminder(older)?.late).toBe(false)
  })

  it('rejects reminders without their required fields', () => {
    const bad = [
      { ...reminder, id: '' },
      { ...reminder, text: undefined },
      { ...reminder, at: 'tomorrow-ish' },
      { ...reminder, at: 1 },
      { ...reminder, createdAt: undefined },
      { ...reminder, status: 'snoozed' },
      { ...reminder, conversationId: 4 },
      'r1',
      null,
    ]
    for (const v of bad) expect(decodeReminder(v), JSON.stringify(v)).toBeNull()
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
    expect(frame({ type: 'reminder-deleted', id: '' })).toBeNull()
  })
})

describe('autonomy', () => {
  const state = { enabled: true, intervalMs: 30000, maxPerHour: 4, cooldownMs: 120000, sentLastHour: 1 }

  it('decodes the state, with tick times as numbers or ISO strings', () => {
    expect(decodeAutonomy(state)).toEqual(state)
    expect(decodeAutonomy({ ...state, lastTickAt: 1000, nextTickAt: '1970-01-01T00:00:31.000Z' })).toEqual({
      ...state,
      lastTickAt: 1000,
      nextTickAt: 31000,
    })
    expect(decodeAutonomy({ ...state, lastTickAt: null, nextTickAt: 'never' })).toEqual(state)
    const { sentLastHour: _s, ...noCount } = state
    expect(decodeAutonomy(noCount)?.sentLastHour).toBe(0)
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
