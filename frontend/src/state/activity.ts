// The Activity list: incoming stream envelopes, newest first, capped.

import type { StreamEnvelope } from '../api'

export const ACTIVITY_CAP = 200

export interface ActivityEntry {
  /** eventId@ts: unique per server run, stable across replays. */
  key: string
  envelope: StreamEnvelope
}

export function activityKey(env: StreamEnvelope): string {
  return `${env.eventId}@${env.ts}`
}

/** Prepends env unless it is already listed (a replay); keeps at most cap entries. */
export function addActivity(
  list: readonly ActivityEntry[],
  env: StreamEnvelope,
  cap = ACTIVITY_CAP,
): ActivityEntry[] {
  const key = activityKey(env)
  if (list.some((e) => e.key === key)) return list as ActivityEntry[]
  return [{ key, envelope: env }, ...list].slice(0, cap)
}
