// "Show in Terminal" from anywhere in the app: App provides a function that
// opens the Terminal panel and focuses a run there; a request carries a
// counter so asking again for the same run focuses it again.

import { createContext, useContext } from 'react'

/** A run the Terminal panel is asked to show. */
export interface TerminalRunRequest {
  runId: string
  /** Bumped by every request. */
  seq: number
}

export const TerminalOpenerContext = createContext<((runId: string) => void) | null>(null)

/** Opens the Terminal panel on a run (null outside the App). */
export function useShowTerminalRun(): ((runId: string) => void) | null {
  return useContext(TerminalOpenerContext)
}

/** The next request after prev, for runId. */
export function nextRunRequest(prev: TerminalRunRequest | null, runId: string): TerminalRunRequest {
  return { runId, seq: (prev?.seq ?? 0) + 1 }
}
