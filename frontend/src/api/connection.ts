// Where the backend is and which token to use.
//
// Desktop (Wails): the Go side binds Desktop.GetConnection(). Browser: the
// page's own origin, /ws on the same host, and a token the user typed in
// earlier (localStorage "wisp.token", possibly empty).

import type { ConnectionInfo } from './types'
import { isObject } from './decode'

export const TOKEN_STORAGE_KEY = 'wisp.token'
export const CLIENT_ID_STORAGE_KEY = 'wisp.clientId'

export type ConnectionMode = 'desktop' | 'browser'

export interface ResolvedConnection extends ConnectionInfo {
  mode: ConnectionMode
}

interface DesktopBinding {
  GetConnection(): Promise<unknown>
}

declare global {
  interface Window {
    go?: { app?: { Desktop?: Partial<DesktopBinding> } }
  }
}

/** What resolveConnection reads from its surroundings (the real window by default). */
export interface ConnectionEnv {
  desktop(): DesktopBinding | undefined
  /** True when the page is served by Wails, so the binding may still be loading. */
  looksLikeDesktop(): boolean
  origin: string
  storage: Pick<Storage, 'getItem'> | undefined
  sleep(ms: number): Promise<void>
}

export function browserEnv(): ConnectionEnv {
  return {
    desktop() {
      const get = window.go?.app?.Desktop?.GetConnection
      return typeof get === 'function' ? { GetConnection: () => get() } : undefined
    },
    looksLikeDesktop() {
      return location.protocol === 'wails:' || location.hostname === 'wails.localhost'
    },
    origin: location.origin,
    storage: safeLocalStorage(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }
}

export function safeLocalStorage(): Storage | undefined {
  try {
    return window.localStorage
  } catch {
    return undefined
  }
}

/** ws(s)://host/ws for an http(s) origin. */
export function wsURLFromOrigin(origin: string): string {
  const url = new URL('/ws', origin)
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return url.toString()
}

function decodeDesktopConnection(v: unknown): ConnectionInfo {
  if (!isObject(v) || typeof v.baseURL !== 'string' || typeof v.wsURL !== 'string') {
    throw new Error('desktop GetConnection returned an unexpected value')
  }
  const info: ConnectionInfo = {
    baseURL: v.baseURL.replace(/\/+$/, ''),
    wsURL: v.wsURL,
    token: typeof v.token === 'string' ? v.token : '',
  }
  if (typeof v.terminalToken === 'string' && v.terminalToken !== '') info.terminalToken = v.terminalToken
  return info
}

const BINDING_WAIT_MS = 5_000
const BINDING_POLL_MS = 50

export async function resolveConnection(env: ConnectionEnv = browserEnv()): Promise<ResolvedConnection> {
  let binding = env.desktop()
  if (binding === undefined && env.looksLikeDesktop()) {
    // Wails injects its bindings with its own scripts; give them a moment.
    for (let waited = 0; binding === undefined && waited < BINDING_WAIT_MS; waited += BINDING_POLL_MS) {
      await env.sleep(BINDING_POLL_MS)
      binding = env.desktop()
    }
  }
  if (binding !== undefined) {
    const info = decodeDesktopConnection(await binding.GetConnection())
    return { ...info, mode: 'desktop' }
  }
  return {
    mode: 'browser',
    baseURL: env.origin,
    wsURL: wsURLFromOrigin(env.origin),
    token: env.storage?.getItem(TOKEN_STORAGE_KEY) ?? '',
  }
}

export function saveToken(token: string): void {
  safeLocalStorage()?.setItem(TOKEN_STORAGE_KEY, token)
}

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') {
    return crypto.randomUUID()
  }
  return `c${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`
}

/** A client id that stays the same for this tab across reloads (sessionStorage). */
export function tabClientId(): string {
  let storage: Storage | undefined
  try {
    storage = window.sessionStorage
  } catch {
    storage = undefined
  }
  const existing = storage?.getItem(CLIENT_ID_STORAGE_KEY)
  if (existing && /^[A-Za-z0-9._-]{1,128}$/.test(existing)) return existing
  const id = `ui-${randomId()}`
  storage?.setItem(CLIENT_ID_STORAGE_KEY, id)
  return id
}
