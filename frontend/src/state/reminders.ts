// The Reminders panel outside React: its list (pending reminders soonest
// first, then the most recently delivered ones, kept in that order as
// reminder-updated and reminder-deleted frames arrive) and the request its
// add form makes. Pure.

import type { NewReminder, Reminder } from '../api'

/** How many delivered reminders the list keeps (GET /api/reminders sends as many). */
export const DELIVERED_CAP = 50

function time(iso: string | undefined): number {
  const ms = iso === undefined ? Number.NaN : Date.parse(iso)
  return Number.isNaN(ms) ? 0 : ms
}

/** When a delivered reminder was delivered (its due time when the server did not say). */
function deliveredTime(r: Reminder): number {
  return r.deliveredAt === undefined ? time(r.at) : time(r.deliveredAt)
}

function panelOrder(a: Reminder, b: Reminder): number {
  if (a.status !== b.status) return a.status === 'pending' ? -1 : 1
  if (a.status === 'pending') return time(a.at) - time(b.at) || time(a.createdAt) - time(b.createdAt)
  return deliveredTime(b) - deliveredTime(a)
}

/** Pending by due time, then delivered newest first (at most DELIVERED_CAP). */
export function sortReminders(list: readonly Reminder[]): Reminder[] {
  const sorted = [...list].sort(panelOrder)
  const firstDelivered = sorted.findIndex((r) => r.status === 'delivered')
  return firstDelivered < 0 ? sorted : sorted.slice(0, firstDelivered + DELIVERED_CAP)
}

/**
 * Adds a reminder or replaces the one with its id. A delivered reminder never
 * turns pending again: an older copy (a list fetched before it fired) loses.
 */
export function upsertReminder(list: readonly Reminder[], next: Reminder): Reminder[] {
  const prev = list.find((r) => r.id === next.id)
  if (prev !== undefined && prev.status === 'delivered' && next.status === 'pending') return list as Reminder[]
  return sortReminders([next, ...list.filter((r) => r.id !== next.id)])
}

export function removeReminder(list: readonly Reminder[], id: string): Reminder[] {
  return list.some((r) => r.id === id) ? list.filter((r) => r.id !== id) : (list as Reminder[])
}

/** Splits the list for the panel. */
export function splitReminders(list: readonly Reminder[]): { pending: Reminder[]; delivered: Reminder[] } {
  return { pending: list.filter((r) => r.status === 'pending'), delivered: list.filter((r) => r.status === 'delivered') }
}

/** How often the panel's relative times refresh: every second while a reminder is due within two minutes. */
export function refreshPeriod(list: readonly Reminder[], now: number): number {
  const soon = list.some((r) => r.status === 'pending' && time(r.at) - now < 120_000)
  return soon ? 1_000 : 15_000
}

/** The add form as its inputs hold it. */
export interface ReminderDraft {
  text: string
  /** "in" N minutes, or "at" a local date and time. */
  mode: 'in' | 'at'
  minutes: string
  /** A datetime-local value ("2026-11-21T14:05"), in the browser's zone. */
  at: string
}

export type DraftResult = { ok: true; request: NewReminder } | { ok: false; error: string }

/** The POST /api/reminders body for a draft, in conversationId (none: Wisp routes it), or what is wrong with it. */
export function reminderRequest(draft: ReminderDraft, conversationId: string | null): DraftResult {
  const text = draft.text.trim()
  if (text === '') return { ok: false, error: 'Write what to remind you of.' }
  const where = conversationId === null ? {} : { conversationId }
  if (draft.mode === 'in') {
    const minutes = draft.minutes.trim() === '' ? Number.NaN : Number(draft.minutes)
    if (!Number.isFinite(minutes) || minutes <= 0) return { ok: false, error: 'Give a number of minutes above 0.' }
    return { ok: true, request: { ...where, text, inMinutes: minutes } }
  }
  const at = draft.at === '' ? Number.NaN : new Date(draft.at).getTime()
  if (Number.isNaN(at)) return { ok: false, error: 'Pick a date and time.' }
  return { ok: true, request: { ...where, text, at: new Date(at).toISOString() } }
}
