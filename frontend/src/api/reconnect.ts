// What the page does when the server may have moved: after a restart that
// answered with a new address, or when the socket closed with 1012 (another
// client restarted Wisp). Pure, so the decisions are tested without a page.

import type { ServerEndpoint } from './configTypes'
import { tokenFragment, type ConnectionMode } from './connection'

/** Close code of a server restart ("service restart"). */
export const CLOSE_SERVICE_RESTART = 1012

export type ReconnectPlan =
  /** Same server address: the API client and socket carry on (the socket reconnects by itself). */
  | { kind: 'stay' }
  /** Browser: the page itself comes from the server, so load it from the new origin. */
  | { kind: 'navigate'; url: string }
  /** Desktop: ask the window's binding for the connection again and reconnect to it. */
  | { kind: 'reresolve' }

function originOf(url: string): string | null {
  try {
    return new URL(url).origin
  } catch {
    return null
  }
}

/** Whether two base URLs name the same server (scheme, host and port). */
export function sameServer(a: string, b: string): boolean {
  const left = originOf(a)
  return left !== null && left === originOf(b)
}

/**
 * The plan after POST /api/agent/restart succeeded. here is the page's
 * location; the browser keeps its path, query and hash on the new origin. The
 * new origin has its own storage, so the page's API token (if any) goes along
 * in the fragment (connection.ts takes it out again).
 */
export function planAfterRestart(
  mode: ConnectionMode,
  currentBaseURL: string,
  next: ServerEndpoint | null,
  here: Pick<Location, 'pathname' | 'search' | 'hash'>,
  token = '',
): ReconnectPlan {
  if (next === null || sameServer(currentBaseURL, next.baseURL)) return { kind: 'stay' }
  if (mode === 'desktop') return { kind: 'reresolve' }
  const origin = originOf(next.baseURL)
  if (origin === null) return { kind: 'stay' }
  const hash = token === '' ? here.hash : tokenFragment(token, here.hash)
  return { kind: 'navigate', url: `${origin}${here.pathname}${here.search}${hash}` }
}

/** Desktop windows look the connection up again when the server restarted: its port may have moved. */
export function reresolveOnClose(mode: ConnectionMode | null, code: number): boolean {
  return mode === 'desktop' && code === CLOSE_SERVICE_RESTART
}
