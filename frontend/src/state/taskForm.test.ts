// The create form's pure part: the RRULEs of the "every…" builder, its
// schedule in words, and the POST /api/tasks body of a draft (or the input
// that is wrong).

import { describe, expect, it } from 'vitest'
import { EMPTY_TASK_DRAFT, everyInWords, everyRule, taskRequest, toggleDay, type EveryDraft, type TaskDraft } from './taskForm'

const every = (over: Partial<EveryDraft>): EveryDraft => ({ ...EMPTY_TASK_DRAFT.every, ...over })
const draft = (over: Partial<TaskDraft>): TaskDraft => ({ ...EMPTY_TASK_DRAFT, prompt: 'Say the word pineapple', ...over })

describe('everyRule', () => {
  it('builds the RRULEs of the common cases', () => {
    expect(everyRule(every({ kind: 'daily', time: '07:30' }))).toEqual({ ok: true, rrule: 'FREQ=DAILY;BYHOUR=7;BYMINUTE=30;BYSECOND=0' })
    expect(everyRule(every({ kind: 'weekdays', time: '09:00' }))).toEqual({
      ok: true,
      rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    })
    expect(everyRule(every({ kind: 'weekly', time: '18:05', days: ['SU', 'WE'] }))).toEqual({
      ok: true,
      rrule: 'FREQ=WEEKLY;BYDAY=WE,SU;BYHOUR=18;BYMINUTE=5;BYSECOND=0',
    })
    expect(everyRule(every({ kind: 'hours', hours: ' 6 ' }))).toEqual({ ok: true, rrule: 'FREQ=HOURLY;INTERVAL=6' })
  })

  it('names the wrong input', () => {
    expect(everyRule(every({ kind: 'daily', time: '24:00' }))).toMatchObject({ ok: false, field: 'time' })
    expect(everyRule(every({ kind: 'daily', time: '' }))).toMatchObject({ ok: false, field: 'time' })
    expect(everyRule(every({ kind: 'weekly', days: [] }))).toMatchObject({ ok: false, field: 'days' })
    for (const hours of ['0', '1.5', '-2', '169', 'x', '']) expect(everyRule(every({ kind: 'hours', hours }))).toMatchObject({ ok: false, field: 'hours' })
  })
})

describe('everyInWords', () => {
  it('says the schedule as the list will', () => {
    expect(everyInWords(every({ kind: 'weekdays', time: '09:00' }))).toBe('every weekday at 09:00')
    expect(everyInWords(every({ kind: 'daily', time: '21:15' }))).toBe('every day at 21:15')
    expect(everyInWords(every({ kind: 'weekly', time: '08:00', days: ['FR', 'MO', 'WE'] }))).toBe('every Monday, Wednesday and Friday at 08:00')
    expect(everyInWords(every({ kind: 'hours', hours: '1' }))).toBe('every hour')
    expect(everyInWords(every({ kind: 'hours', hours: '3' }))).toBe('every 3 hours')
  })
})

describe('toggleDay', () => {
  it('adds or removes a day, in week order', () => {
    expect(toggleDay(['FR'], 'MO')).toEqual(['MO', 'FR'])
    expect(toggleDay(['MO', 'FR'], 'MO')).toEqual(['FR'])
  })
})

describe('taskRequest', () => {
  it('sends the builder’s RRULE to a new conversation, with catch-up', () => {
    expect(taskRequest(draft({}), 'c1')).toEqual({
      ok: true,
      request: { prompt: 'Say the word pineapple', catchUp: true, rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0' },
    })
  })

  it('sends the open conversation when asked, and catch-up off', () => {
    const r = taskRequest(draft({ target: 'current', catchUp: false, when: 'cron', cron: ' 0  9 * * 1-5 ' }), 'c1')
    expect(r).toEqual({ ok: true, request: { prompt: 'Say the word pineapple', catchUp: false, conversationId: 'c1', cron: '0 9 * * 1-5' } })
    // No open conversation: a new one.
    expect(taskRequest(draft({ target: 'current' }), null)).toMatchObject({ ok: true, request: { prompt: 'Say the word pineapple' } })
    expect(taskRequest(draft({ target: 'current' }), null)).not.toHaveProperty('request.conversationId')
  })

  it('sends a time once as RFC 3339, read in this computer’s zone', () => {
    const r = taskRequest(draft({ when: 'once', onceAt: '2026-12-01T09:00' }), null)
    expect(r).toEqual({ ok: true, request: { prompt: 'Say the word pineapple', catchUp: true, at: new Date(2026, 11, 1, 9, 0).toISOString() } })
  })

  it('takes a raw RRULE with or without its RRULE: prefix', () => {
    expect(taskRequest(draft({ when: 'rrule', rrule: 'RRULE:FREQ=MONTHLY;BYMONTHDAY=1' }), null)).toMatchObject({
      ok: true,
      request: { rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' },
    })
  })

  it('names the wrong input and sends nothing', () => {
    expect(taskRequest(draft({ prompt: '  ' }), null)).toMatchObject({ ok: false, field: 'prompt' })
    expect(taskRequest(draft({ when: 'once', onceAt: '' }), null)).toMatchObject({ ok: false, field: 'onceAt' })
    expect(taskRequest(draft({ when: 'once', onceAt: 'soon' }), null)).toMatchObject({ ok: false, field: 'onceAt' })
    expect(taskRequest(draft({ when: 'rrule', rrule: ' ' }), null)).toMatchObject({ ok: false, field: 'rrule' })
    expect(taskRequest(draft({ when: 'cron' }), null)).toMatchObject({ ok: false, field: 'cron' })
    expect(taskRequest(draft({ every: every({ kind: 'weekly', days: [] }) }), null)).toMatchObject({ ok: false, field: 'days' })
  })
})
