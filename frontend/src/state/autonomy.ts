// How the settings view describes the autonomy loop's state (GET
// /api/agent/autonomy) in one line. Pure.

import type { AutonomyState } from '../api'
import { formatLocalTime, formatRelative } from '../format'

function seconds(ms: number): string {
  if (ms < 60_000 || ms % 60_000 !== 0) return `${Math.round(ms / 1000)} s`
  return `${ms / 60_000} min`
}

/** "Off." or "On: checks every 30 s, 1 of 4 messages in the last hour, next check in 12 s (14:05)." */
export function describeAutonomy(a: AutonomyState, now: number): string {
  if (!a.enabled) return 'Off: the assistant speaks only when you write to it (reminders and long terminal runs aside).'
  const parts = [`checks every ${seconds(a.intervalMs)}`, `${a.sentLastHour} of ${a.maxPerHour} messages in the last hour`]
  if (a.nextTickAt !== undefined) {
    parts.push(`next check ${formatRelative(a.nextTickAt, now)} (${formatLocalTime(a.nextTickAt, now)})`)
  }
  return `On: ${parts.join(', ')}.`
}
