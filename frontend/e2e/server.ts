// Starts the real Wisp server binary for browser tests and stops it again.

import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const FRONTEND_DIR = resolve(import.meta.dirname, '..')
const LISTENING = /Wisp is listening on (http:\/\/\S+)/

export function wispBinary(): string {
  return resolve(FRONTEND_DIR, process.env.WISP_BIN ?? '../build/bin/wisp-serve')
}

export interface RunningServer {
  url: string
  /** Everything the server wrote so far, stdout and stderr. */
  output(): string
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Sends SIGTERM and resolves with the exit code (null if killed by a signal). */
  stop(): Promise<number | null>
}

export interface StartOptions {
  env?: Record<string, string>
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
  const child = spawn(wispBinary(), ['serve', '--port', String(port), '--state-dir', stateDir], {
    env: { ...process.env, WISP_API_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))

  const cleanup = () => {
    if (ownsStateDir) rmSync(stateDir, { recursive: true, force: true })
  }
  const waitForOutput = (pattern: RegExp, ms = 30_000) => waitFor(child, () => pattern.test(out), ms, () => out)

  try {
    await waitForOutput(LISTENING, timeoutMs)
  } catch (err) {
    child.kill('SIGKILL')
    cleanup()
    throw err
  }
  const url = LISTENING.exec(out)?.[1]
  if (url === undefined) throw new Error('unreachable: no listening line')

  let stopping: Promise<number | null> | null = null
  return {
    url,
    output: () => out,
    waitForOutput,
    stop() {
      stopping ??= (async () => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000)
        const code = await exited
        clearTimeout(timer)
        cleanup()
        return code
      })()
      return stopping
    },
  }
}

function waitFor(child: ChildProcess, ready: () => boolean, timeoutMs: number, log: () => string): Promise<void> {
  return new Promise((res, rej) => {
    const started = Date.now()
    const tick = () => {
      if (ready()) return res()
      if (child.exitCode !== null || child.signalCode !== null) {
        return rej(new Error(`wisp exited (${child.exitCode ?? child.signalCode}) early; output:\n${log()}`))
      }
      if (Date.now() - started > timeoutMs) return rej(new Error(`timed out after ${timeoutMs} ms; output:\n${log()}`))
      setTimeout(tick, 50)
    }
    tick()
  })
}
