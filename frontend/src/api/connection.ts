// Where the backend is and which token to use.
//
// Desktop (Wails): the Go side binds Desktop.GetConnection(). Browser: the
// page's own origin, /ws on the same host, and the token of the URL that
// `wisp serve` prints (http://127.0.0.1:2138/#token=…), kept in localStorage
// ("wisp.token") for later visits, or one the user typed in earlier (possibly
// empty). The token is taken out of the address bar at once.

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
  /** Saves an export (all conversations when id is '') into the downloads folder; resolves to its path. */
  SaveExport?(conversationId: string, format: string): Promise<unknown>
  /** The window's file dialog: uploads the chosen files itself and resolves to their attachments (wire.Attachment[]). */
  PickFiles?(): Promise<unknown>
  /** Saves an attachment's bytes into the downloads folder (WebKitGTK has no download manager); resolves to its path. */
  SaveAttachment?(id: string): Promise<unknown>
}

declare global {
  interface Window {
    go?: { desktop?: { Desktop?: Partial<DesktopBinding> } }
  }
}

/** What resolveConnection reads from its surroundings (the real window by default). */
export interface ConnectionEnv {
  desktop(): DesktopBinding | undefined
  /** True when the page is served by Wails, so the binding may still be loading. */
  looksLikeDesktop(): boolean
  origin: string
  storage: Pick<Storage, 'getItem' | 'setItem'> | undefined
  /** The page's fragment (location.hash). */
  hash: string
  /** Replaces the fragment in the address bar without a navigation ('' removes it). */
  replaceHash(hash: string): void
  sleep(ms: number): Promise<void>
}

export function browserEnv(): ConnectionEnv {
  return {
    desktop() {
      const get = window.go?.desktop?.Desktop?.GetConnection
      return typeof get === 'function' ? { GetConnection: () => get() } : undefined
    },
    looksLikeDesktop() {
      return location.protocol === 'wails:' || location.hostname === 'wails.localhost'
    },
    origin: location.origin,
    storage: safeLocalStorage(),
    hash: location.hash,
    replaceHash(hash) {
      try {
        history.replaceState(history.state, '', `${location.pathname}${location.search}${hash}`)
      } catch {
        // An address bar the page may not change keeps the fragment; the token still works.
      }
    },
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  }
}

const FRAGMENT_TOKEN = '#token='

/**
 * The fragment that hands a page its token: `#token=<token>`, and with
 * `&route=<fragment>` the fragment the page shows once the token is taken out
 * (a restart that moved the server sends the page to its new address this way).
 * Fragments never reach the server, so the token stays out of its logs.
 */
export function tokenFragment(token: string, route = ''): string {
  const params = new URLSearchParams({ token })
  if (route.startsWith('#') && route !== '#') params.set('route', route)
  return `#${params.toString()}`
}

/** The token and the fragment to leave in its place, or null when hash hands over no token. */
export function readTokenFragment(hash: string): { token: string; route: string } | null {
  if (!hash.startsWith(FRAGMENT_TOKEN)) return null
  const params = new URLSearchParams(hash.slice(1))
  const route = params.get('route') ?? ''
  return { token: (params.get('token') ?? '').trim(), route: route.startsWith('#') ? route : '' }
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
  // First of all, the token leaves the address bar (and the history entry).
  const handed = readTokenFragment(env.hash)
  if (handed !== null) env.replaceHash(handed.route)
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
  let token = env.storage?.getItem(TOKEN_STORAGE_KEY) ?? ''
  if (handed !== null && handed.token !== '') {
    token = handed.token
    storeToken(env.storage, token)
  }
  return { mode: 'browser', baseURL: env.origin, wsURL: wsURLFromOrigin(env.origin), token }
}

function storeToken(storage: Pick<Storage, 'setItem'> | undefined, token: string): void {
  try {
    storage?.setItem(TOKEN_STORAGE_KEY, token)
  } catch {
    // Storage full or refused: the token serves this page, and the next visit asks again.
  }
}

export function saveToken(token: string): void {
  storeToken(safeLocalStorage(), token)
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
