// Starts the real Wisp server binary for browser tests and stops it again.

import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeAll } from 'vitest'
import { ARTIFACTS } from './browser'
import { spawnUntilReady, type EnvOverrides, type RunningProcess } from './process'

const FRONTEND_DIR = resolve(import.meta.dirname, '..')

/** Settings of the test machine that must not reach a server whose shell or config is under test. */
export const CLEAN_ENV: EnvOverrides = {
  WISP_CONFIG_PATH: undefined,
  WISP_TERMINAL_RUN_TOKEN: undefined,
  WISP_TERMINAL_MAX_CONCURRENT: undefined,
  WISP_TERMINAL_MAX_DURATION_MS: undefined,
  // Bash, whatever the user's login shell is: the agent's grants hold only there.
  SHELL: '/bin/bash',
}
/** The second line `wisp serve` prints: the URL to open, with the API token in its fragment (whole lines only). */
export const RUNNING = /Wisp is running: open (http:\/\/\S+)\n/

export function wispBinary(): string {
  return resolve(FRONTEND_DIR, process.env.WISP_BIN ?? '../build/bin/wisp-serve')
}

export interface RunningServer extends RunningProcess {
  /** The server's origin (http://127.0.0.1:PORT), for API calls. */
  url: string
  /** The URL the server printed for a browser: the UI with `#token=…`. */
  openURL: string
  /** The API token in openURL ('' when it has none). */
  token: string
  /** Headers that authorise an API call. */
  auth: Record<string, string>
}

/** The server a process is, from the URL it printed (RUNNING). */
export function serverOf(proc: RunningProcess): RunningServer {
  const open = new URL(proc.url)
  const token = open.hash.startsWith('#token=') ? (new URLSearchParams(open.hash.slice(1)).get('token') ?? '') : ''
  return {
    ...proc,
    url: open.origin,
    openURL: proc.url,
    token,
    auth: token === '' ? {} : { Authorization: `Bearer ${token}` },
  }
}

/** The UI at route (e.g. "#/c/<id>"), handed the server's token the way the UI hands it on after a restart. */
export function pageURL(s: RunningServer, route: string): string {
  if (s.token === '') return `${s.url}/${route}`
  return `${s.url}/#${new URLSearchParams({ token: s.token, route }).toString()}`
}

export interface StartOptions {
  /**
   * Environment overrides; undefined removes a variable. WISP_API_TOKEN is cleared unless
   * given, so the server uses the token it keeps in its state folder (see RunningServer.token).
   */
  env?: EnvOverrides
  /** 0 (default) lets the server pick. */
  port?: number
  /** Reuse a state dir (kept after stop); default: a fresh temp dir, removed after stop. */
  stateDir?: string
  timeoutMs?: number
}

export function freshStateDir(): string {
  return mkdtempSync(join(tmpdir(), 'wisp-e2e-'))
}

/** A port that was free a moment ago. */
export async function freePort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((res) => srv.listen(0, '127.0.0.1', res))
  const addr = srv.address()
  await new Promise<void>((res) => srv.close(() => res()))
  if (addr === null || typeof addr === 'string') throw new Error('no port')
  return addr.port
}

export async function startServer(opts: StartOptions = {}): Promise<RunningServer> {
  const { env = {}, port = 0, timeoutMs = 60_000 } = opts
  const stateDir = opts.stateDir ?? freshStateDir()
  const ownsStateDir = opts.stateDir === undefined
  const proc = await spawnUntilReady(wispBinary(), ['serve', '--port', String(port), '--state-dir', stateDir], {
    name: 'wisp',
    // No session bus: secrets saved in a test never reach the keyring of the desktop running it.
    env: { WISP_API_TOKEN: '', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/wisp-e2e-bus', ...env },
    ready: RUNNING,
    timeoutMs,
    cleanup: () => {
      if (ownsStateDir) rmSync(stateDir, { recursive: true, force: true })
    },
  })
  return serverOf(proc)
}

/** Fails early, with the command to run, when the server binary or the built UI is missing. */
export function requireBuild(): void {
  if (!existsSync(wispBinary())) throw new Error(`server binary not found: ${wispBinary()} (set WISP_BIN)`)
  if (!existsSync(resolve(FRONTEND_DIR, 'dist/index.html'))) {
    throw new Error('dist/index.html missing: run `npm run build` (and rebuild the server) first')
  }
  mkdirSync(ARTIFACTS, { recursive: true })
}

/**
 * Servers for the tests of a describe block: checks the build once, and stops the
 * server a test started when the test ends. Returns the function that starts one.
 */
export function serverPerTest(): (opts?: StartOptions) => Promise<RunningServer> {
  let server: RunningServer | null = null
  beforeAll(requireBuild)
  afterEach(async () => {
    await server?.stop()
    server = null
  })
  return async (opts = {}) => {
    server = await startServer(opts)
    return server
  }
}
