import { describe, expect, it } from 'vitest'
import type { Reminder } from '../api'
import { initialState, reducer } from './reducer'
import {
  DELIVERED_CAP,
  refreshPeriod,
  reminderRequest,
  removeReminder,
  sortReminders,
  splitReminders,
  upsertReminder,
  type ReminderDraft,
} from './reminders'

const T0 = Date.parse('2026-11-21T14:00:00.000Z')
const iso = (ms: number) => new Date(ms).toISOString()

function pending(id: string, atMin: number, createdMin = 0): Reminder {
  return { id, conversationId: 'c1', text: id, at: iso(T0 + atMin * 60_000), createdAt: iso(T0 + createdMin * 60_000), status: 'pending', late: false }
}

function delivered(id: string, atMin: number, deliveredMin = atMin, late = false): Reminder {
  return { ...pending(id, atMin), status: 'delivered', deliveredAt: iso(T0 + deliveredMin * 60_000), messageId: `m-${id}`, late }
}

const order = (list: Reminder[]) => list.map((r) => r.id)

describe('reminder list order', () => {
  it('puts pending soonest first, then delivered newest first', () => {
    const list = [delivered('d-old', 1), pending('p-late', 30), delivered('d-new', 5), pending('p-soon', 10)]
    expect(order(sortReminders(list))).toEqual(['p-soon', 'p-late', 'd-new', 'd-old'])
  })

  it('orders pending reminders due at the same time by creation', () => {
    expect(order(sortReminders([pending('second', 5, 2), pending('first', 5, 1)]))).toEqual(['first', 'second'])
  })

  it('orders delivered reminders by delivery, falling back to their time', () => {
    const { deliveredAt: _d, ...noTime } = delivered('no-time', 20)
    const list = [delivered('late-fired', 1, 30, true), noTime, delivered('fired', 10)]
    expect(order(sortReminders(list))).toEqual(['late-fired', 'no-time', 'fired'])
  })

  it('keeps at most DELIVERED_CAP delivered reminders, never dropping pending ones', () => {
    const many = Array.from({ length: DELIVERED_CAP + 5 }, (_, i) => delivered(`d${i}`, i))
    const sorted = sortReminders([...many, pending('p', 99)])
    expect(sorted).toHaveLength(DELIVERED_CAP + 1)
    expect(sorted[0]?.id).toBe('p')
    expect(sorted[1]?.id).toBe(`d${DELIVERED_CAP + 4}`)
  })
})

describe('following reminder frames', () => {
  it('adds new reminders in place and replaces updated ones', () => {
    let list = sortReminders([pending('a', 10), pending('b', 20)])
    list = upsertReminder(list, pending('c', 15))
    expect(order(list)).toEqual(['a', 'c', 'b'])
    list = upsertReminder(list, delivered('a', 10))
    expect(order(list)).toEqual(['c', 'b', 'a'])
    expect(list[2]?.status).toBe('delivered')
  })

  it('never turns a delivered reminder pending again (an older copy arriving late)', () => {
    const list = [delivered('a', 10)]
    expect(upsertReminder(list, pending('a', 10))).toBe(list)
  })

  it('removes deleted reminders, and ignores unknown ids', () => {
    const list = [pending('a', 10), pending('b', 20)]
    expect(order(removeReminder(list, 'a'))).toEqual(['b'])
    expect(removeReminder(list, 'zzz')).toBe(list)
  })

  it('goes through the reducer: load, update, delete', () => {
    let s = reducer(initialState, { type: 'reminder-removed', id: 'x' })
    expect(s.reminders).toBeNull()
    s = reducer(s, { type: 'reminders-loaded', reminders: [pending('b', 20), pending('a', 10)] })
    expect(order(s.reminders!)).toEqual(['a', 'b'])
    s = reducer(s, { type: 'reminder-upserted', reminder: delivered('a', 10, 12, true) })
    expect(order(s.reminders!)).toEqual(['b', 'a'])
    s = reducer(s, { type: 'reminder-removed', id: 'b' })
    expect(order(s.reminders!)).toEqual(['a'])
    // A frame before the first load starts the list.
    expect(reducer(initialState, { type: 'reminder-upserted', reminder: pending('z', 1) }).reminders).toHaveLength(1)
  })

  it('splits pending from delivered', () => {
    const list = sortReminders([pending('p', 10), delivered('on-time', 1), delivered('late', 2, 9, true)])
    const { pending: p, delivered: d } = splitReminders(list)
    expect(order(p)).toEqual(['p'])
    expect(order(d)).toEqual(['late', 'on-time'])
  })

  it('refreshes every second only while one is due within two minutes', () => {
    expect(refreshPeriod([pending('a', 10)], T0)).toBe(15_000)
    expect(refreshPeriod([pending('a', 1)], T0)).toBe(1_000)
    expect(refreshPeriod([delivered('a', 1)], T0)).toBe(15_000)
    expect(refreshPeriod([], T0)).toBe(15_000)
  })
})

describe('the add form', () => {
  const draft = (change: Partial<ReminderDraft>): ReminderDraft => ({ text: 'stretch', mode: 'in', minutes: '10', at: '', ...change })

  it('asks for N minutes in the open conversation', () => {
    expect(reminderRequest(draft({ text: '  stretch ' }), 'c1')).toEqual({
      ok: true,
      request: { conversationId: 'c1', text: 'stretch', inMinutes: 10 },
    })
    expect(reminderRequest(draft({ minutes: '1.5' }), null)).toEqual({ ok: true, request: { text: 'stretch', inMinutes: 1.5 } })
  })

  it('sends a local date and time as an instant with a zone', () => {
    const res = reminderRequest(draft({ mode: 'at', at: '2026-11-21T15:30' }), null)
    expect(res).toEqual({ ok: true, request: { text: 'stretch', at: new Date('2026-11-21T15:30').toISOString() } })
    if (res.ok && res.request.at !== undefined) expect(res.request.at).toMatch(/Z$/)
  })

  it('says what is missing', () => {
    expect(reminderRequest(draft({ text: '  ' }), null)).toEqual({ ok: false, error: 'Write what to remind you of.' })
    for (const minutes of ['', '0', '-3', 'abc']) {
      expect(reminderRequest(draft({ minutes }), null)).toEqual({ ok: false, error: 'Give a number of minutes above 0.' })
    }
    expect(reminderRequest(draft({ mode: 'at', at: '' }), null)).toEqual({ ok: false, error: 'Pick a date and time.' })
  })
})
