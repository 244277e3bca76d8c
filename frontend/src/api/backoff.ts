// Reconnect schedule of the /ws client (see the Eliza WebSocket protocol):
// 500 ms, ×1.5 per failed attempt, capped at 10 s, for 15 fast attempts;
// after that a slow probe every 30 s, forever. A successful connect resets
// the attempt counter to 0.

export const INITIAL_DELAY_MS = 500
export const BACKOFF_FACTOR = 1.5
export const MAX_DELAY_MS = 10_000
export const FAST_ATTEMPTS = 15
export const PROBE_INTERVAL_MS = 30_000

/** Delay before reconnect attempt number `attempt` (0-based since the last successful connect). */
export function backoffDelay(attempt: number): number {
  if (attempt >= FAST_ATTEMPTS) return PROBE_INTERVAL_MS
  return Math.min(INITIAL_DELAY_MS * BACKOFF_FACTOR ** attempt, MAX_DELAY_MS)
}

/** True once the fast attempts are used up and the client only probes. */
export function isProbing(attempt: number): boolean {
  return attempt >= FAST_ATTEMPTS
}
