// Starts a helper process for browser tests, waits for the line that says it
// is ready, and stops it again (SIGTERM, then SIGKILL after a grace period).

import { spawn, type ChildProcess } from 'node:child_process'

export type EnvOverrides = Record<string, string | undefined>

/** process.env with overrides applied; an undefined value removes the variable. */
export function childEnv(overrides: EnvOverrides): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env }
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete env[key]
    else env[key] = value
  }
  return env
}

export interface RunningProcess {
  /** The first capture group of the ready pattern (a URL). */
  url: string
  /** Everything the process wrote so far, stdout and stderr. */
  output(): string
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>
  /** Sends SIGTERM and resolves with the exit code (null if killed by a signal). */
  stop(): Promise<number | null>
}

export interface SpawnOptions {
  name: string
  env: EnvOverrides
  /** Printed when the process is ready; group 1 is its URL. */
  ready: RegExp
  timeoutMs: number
  /** Runs once the process has exited after stop() (or failed to start). */
  cleanup?: () => void
}

export async function spawnUntilReady(cmd: string, args: string[], opts: SpawnOptions): Promise<RunningProcess> {
  const child = spawn(cmd, args, { env: childEnv(opts.env), stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
  let spawnError: Error | null = null
  child.once('error', (err) => (spawnError = err))
  const exited = new Promise<number | null>((res) => child.once('exit', (code) => res(code)))
  const cleanup = opts.cleanup ?? (() => undefined)
  const waitForOutput = (pattern: RegExp, ms = 30_000) =>
    waitFor(opts.name, child, () => pattern.test(out), ms, () => out, () => spawnError)

  try {
    await waitForOutput(opts.ready, opts.timeoutMs)
  } catch (err) {
    child.kill('SIGKILL')
    cleanup()
    throw err
  }
  const url = opts.ready.exec(out)?.[1]
  if (url === undefined) throw new Error(`${opts.name}: the ready line has no URL`)

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

function waitFor(
  name: string,
  child: ChildProcess,
  ready: () => boolean,
  timeoutMs: number,
  log: () => string,
  spawnError: () => Error | null,
): Promise<void> {
  return new Promise((res, rej) => {
    const started = Date.now()
    const tick = () => {
      if (ready()) return res()
      const err = spawnError()
      if (err !== null) return rej(new Error(`${name} did not start: ${err.message}`))
      if (child.exitCode !== null || child.signalCode !== null) {
        return rej(new Error(`${name} exited (${child.exitCode ?? child.signalCode}) early; output:\n${log()}`))
      }
      if (Date.now() - started > timeoutMs) return rej(new Error(`${name}: timed out after ${timeoutMs} ms; output:\n${log()}`))
      setTimeout(tick, 50)
    }
    tick()
  })
}
