// Settings → Tasks' create form, outside React: the draft as the inputs hold
// it, the RRULE of the "every…" builder (daily, weekdays or chosen days at a
// time, every N hours), the schedule in words for its preview, and the
// POST /api/tasks body of a draft, or which input is wrong and why. The
// server parses the schedule and has the last word (its 400 names the
// problem). Pure.

import type { NewTask } from '../api'

/** The days of the week, in RRULE's two letters, Monday first. */
export const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const
export type Weekday = (typeof WEEKDAYS)[number]

export const WEEKDAY_NAMES: Record<Weekday, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
}

export type WhenKind = 'once' | 'every' | 'rrule' | 'cron'
export type EveryKind = 'daily' | 'weekdays' | 'weekly' | 'hours'

export interface EveryDraft {
  kind: EveryKind
  /** HH:MM, as a time input holds it (daily, weekdays, weekly). */
  time: string
  /** The chosen days (weekly). */
  days: Weekday[]
  /** N of "every N hours", as typed. */
  hours: string
}

export interface TaskDraft {
  prompt: string
  /** Where the results go: the open conversation, or a new one named after the prompt. */
  target: 'current' | 'new'
  when: WhenKind
  /** A datetime-local value ("2026-12-01T09:00"), in this computer's time zone. */
  onceAt: string
  every: EveryDraft
  rrule: string
  cron: string
  /** Run once at the next start if a time was missed while Wisp was off (else skip it). */
  catchUp: boolean
}

export const EMPTY_TASK_DRAFT: TaskDraft = {
  prompt: '',
  target: 'new',
  when: 'every',
  onceAt: '',
  every: { kind: 'weekdays', time: '09:00', days: ['MO'], hours: '4' },
  rrule: '',
  cron: '',
  catchUp: true,
}

/** The inputs a problem can be in. */
export type TaskField = 'prompt' | 'onceAt' | 'time' | 'days' | 'hours' | 'rrule' | 'cron'

export type TaskRequestResult = { ok: true; request: NewTask } | { ok: false; field: TaskField; error: string }

/** The longest "every N hours" (a week). */
export const MAX_EVERY_HOURS = 168

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/

function timeParts(time: string): { hour: number; minute: number } | null {
  const m = TIME.exec(time.trim())
  return m === null ? null : { hour: Number(m[1]), minute: Number(m[2]) }
}

function hoursOf(text: string): number | null {
  const t = text.trim()
  if (!/^\d+$/.test(t)) return null
  const n = Number(t)
  return n >= 1 && n <= MAX_EVERY_HOURS ? n : null
}

/** The builder's RRULE, or what is wrong with its inputs. */
export function everyRule(e: EveryDraft): { ok: true; rrule: string } | { ok: false; field: TaskField; error: string } {
  if (e.kind === 'hours') {
    const n = hoursOf(e.hours)
    if (n === null) return { ok: false, field: 'hours', error: `Enter a whole number of hours from 1 to ${MAX_EVERY_HOURS}.` }
    return { ok: true, rrule: `FREQ=HOURLY;INTERVAL=${n}` }
  }
  const t = timeParts(e.time)
  if (t === null) return { ok: false, field: 'time', error: 'Enter a time as HH:MM.' }
  const at = `BYHOUR=${t.hour};BYMINUTE=${t.minute};BYSECOND=0`
  switch (e.kind) {
    case 'daily':
      return { ok: true, rrule: `FREQ=DAILY;${at}` }
    case 'weekdays':
      return { ok: true, rrule: `FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;${at}` }
    case 'weekly': {
      const days = WEEKDAYS.filter((d) => e.days.includes(d))
      if (days.length === 0) return { ok: false, field: 'days', error: 'Choose at least one day.' }
      return { ok: true, rrule: `FREQ=WEEKLY;BYDAY=${days.join(',')};${at}` }
    }
  }
}

/** The builder's schedule in words ("every weekday at 09:00"), for the form's preview. */
export function everyInWords(e: EveryDraft): string {
  if (e.kind === 'hours') {
    const n = hoursOf(e.hours)
    return n === null ? 'every few hours' : n === 1 ? 'every hour' : `every ${n} hours`
  }
  const at = timeParts(e.time) === null ? '' : ` at ${e.time.trim()}`
  switch (e.kind) {
    case 'daily':
      return `every day${at}`
    case 'weekdays':
      return `every weekday${at}`
    case 'weekly': {
      const days = WEEKDAYS.filter((d) => e.days.includes(d)).map((d) => WEEKDAY_NAMES[d])
      return days.length === 0 ? `every week${at}` : `every ${joinWords(days)}${at}`
    }
  }
}

function joinWords(words: string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`
}

/** The day toggled in a weekly choice, kept in week order. */
export function toggleDay(days: readonly Weekday[], day: Weekday): Weekday[] {
  return WEEKDAYS.filter((d) => (d === day ? !days.includes(d) : days.includes(d)))
}

/**
 * The POST /api/tasks body of a draft (conversationId: the open
 * conversation, for target "current"), or the input that is wrong.
 */
export function taskRequest(draft: TaskDraft, conversationId: string | null): TaskRequestResult {
  const prompt = draft.prompt.trim()
  if (prompt === '') return { ok: false, field: 'prompt', error: 'Say what the task should do.' }
  const base: { prompt: string; catchUp: boolean; conversationId?: string } = { prompt, catchUp: draft.catchUp }
  if (draft.target === 'current' && conversationId !== null) base.conversationId = conversationId
  switch (draft.when) {
    case 'once': {
      const ms = draft.onceAt.trim() === '' ? NaN : new Date(draft.onceAt).getTime()
      if (Number.isNaN(ms)) return { ok: false, field: 'onceAt', error: 'Choose a date and time.' }
      return { ok: true, request: { ...base, at: new Date(ms).toISOString() } }
    }
    case 'every': {
      const rule = everyRule(draft.every)
      return rule.ok ? { ok: true, request: { ...base, rrule: rule.rrule } } : rule
    }
    case 'rrule': {
      const rrule = draft.rrule.trim().replace(/^RRULE:/i, '')
      if (rrule === '') return { ok: false, field: 'rrule', error: 'Enter an RRULE such as FREQ=WEEKLY;BYDAY=MO;BYHOUR=9.' }
      return { ok: true, request: { ...base, rrule } }
    }
    case 'cron': {
      const cron = draft.cron.trim().replace(/\s+/g, ' ')
      if (cron === '') return { ok: false, field: 'cron', error: 'Enter a cron line such as 0 9 * * 1-5.' }
      return { ok: true, request: { ...base, cron } }
    }
  }
}
