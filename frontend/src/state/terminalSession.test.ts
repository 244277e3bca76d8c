import { describe, expect, it } from 'vitest'
import { ApiError, type ApiClient } from '../api/rest'
import type {
  StartTerminalRunRequest,
  TerminalAuth,
  TerminalOutputMessage,
  TerminalRun,
  TerminalRunDetail,
  TerminalRunList,
} from '../api/terminalTypes'
import type { TerminalBridge } from './terminalBridge'
import { FOCUSED_RUN_KEY, HIDE_CURSOR, TERMINAL_TOKEN_KEY, TerminalSession, type TerminalScreen } from './terminalSession'
import { terminalRun } from './terminalRun.test-util'

const ME = 'tab-1'

function run(runId: string, over: Partial<TerminalRun> = {}): TerminalRun {
  return terminalRun({ runId, command: `cmd ${runId}`, clientId: ME, ...over })
}

interface Deferred<T> {
  promise: Promise<T>
  resolve(v: T): void
  reject(e: unknown): void
}

function deferred<T>(): Deferred<T> {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

class FakeApi {
  list: TerminalRunList = { enabled: true, tokenRequired: false, maxConcurrent: 2, maxDurationMs: 5000, configPath: '/c', runs: [] }
  listCalls = 0
  details: Deferred<TerminalRunDetail>[] = []
  detailIds: string[] = []
  starts: { req: StartTerminalRunRequest; auth: TerminalAuth }[] = []
  startAnswer: (auth: TerminalAuth) => Promise<{ ok: boolean; runId: string }> = async () => ({ ok: true, runId: 'run-new' })
  kills: string[] = []

  async listTerminalRuns(): Promise<TerminalRunList> {
    this.listCalls++
    return this.list
  }
  getTerminalRun(runId: string): Promise<TerminalRunDetail> {
    const d = deferred<TerminalRunDetail>()
    this.details.push(d)
    this.detailIds.push(runId)
    return d.promise
  }
  startTerminalRun(req: StartTerminalRunRequest, auth: TerminalAuth) {
    this.starts.push({ req, auth })
    return this.startAnswer(auth)
  }
  async killTerminalRun(runId: string) {
    this.kills.push(runId)
    return { ok: true }
  }
}

class FakeScreen implements TerminalScreen {
  text = ''
  resets: boolean[] = []
  focused = 0
  reset(captured: boolean) {
    this.text = ''
    this.resets.push(captured)
  }
  write(data: string) {
    this.text += data
  }
  size() {
    return { cols: 100, rows: 30 }
  }
  focus() {
    this.focused++
  }
}

class MemoryStorage {
  map = new Map<string, string>()
  getItem(k: string) {
    return this.map.get(k) ?? null
  }
  setItem(k: string, v: string) {
    this.map.set(k, v)
  }
  removeItem(k: string) {
    this.map.delete(k)
  }
}

function setup(opts: { desktopToken?: string; storage?: MemoryStorage } = {}) {
  const api = new FakeApi()
  const screen = new FakeScreen()
  const storage = opts.storage ?? new MemoryStorage()
  const sent: unknown[] = []
  const timers: (() => void)[] = []
  const bridge: TerminalBridge = {
    clientId: ME,
    desktopToken: opts.desktopToken ?? '',
    onOutput: () => () => undefined,
    onServerError: () => () => undefined,
    sendInput: (runId, data, terminalToken) =>
      sent.push({ type: 'terminal-input', runId, data, ...(terminalToken === undefined ? {} : { terminalToken }) }),
    sendResize: (runId, cols, rows) => sent.push({ type: 'terminal-resize', runId, cols, rows }),
  }
  const session = new TerminalSession({
    bridge,
    storage,
    setTimer: (fn) => timers.push(fn),
    clearTimer: () => undefined,
  })
  const flushTimers = async () => {
    while (timers.length > 0) timers.shift()?.()
    await tick()
  }
  return { api, screen, storage, sent, session, flushTimers, use: () => session.setApi(api as unknown as ApiClient) }
}

const tick = () => new Promise((r) => setTimeout(r, 0))

const ev = (seq: number, extra: Partial<TerminalOutputMessage> & Pick<TerminalOutputMessage, 'event'>, runId = 'run-new') =>
  ({ type: 'terminal-output', runId, seq, ...extra }) as TerminalOutputMessage

function detailOf(r: TerminalRun, lastSeq: number, chunks: string[]): TerminalRunDetail {
  return {
    ...r,
    lastSeq,
    scrollbackTruncated: false,
    scrollback: chunks.map((data, i) => ({ seq: i + 2, event: 'stdout' as const, data })),
  }
}

describe('TerminalSession', () => {
  it("lists this tab's runs and agent runs only", async () => {
    const t = setup()
    t.api.list.runs = [run('a'), run('b', { clientId: 'tab-2' }), run('c', { clientId: '', agent: true }), run('d', { clientId: '' })]
    t.use()
    await tick()
    expect(t.session.get().runs.map((r) => r.runId)).toEqual(['a', 'c'])
    expect(t.session.get().info?.enabled).toBe(true)
  })

  it('starts a run, merges its scrollback with held live events and forwards keystrokes while it runs', async () => {
    const t = setup()
    t.use()
    t.session.attachScreen(t.screen)
    await tick()
    expect(await t.session.run('  read x; echo got:$x ')).toBe(true)
    expect(t.api.starts[0]).toEqual({ req: { command: 'read x; echo got:$x', cols: 100, rows: 30 }, auth: { clientId: ME } })
    expect(t.screen.focused).toBe(1)
    expect(t.storage.getItem(FOCUSED_RUN_KEY)).toBe('run-new')
    expect(t.session.get()).toMatchObject({ focusedRunId: 'run-new', acceptsInput: true })

    // live events before the scrollback answers are held
    t.session.onOutput(ev(2, { event: 'stdout', data: 'prompt> ' }))
    t.session.onOutput(ev(3, { event: 'stdout', data: 'h' }))
    expect(t.screen.text).toBe('')
    t.session.input('h')
    t.api.details[0]?.resolve(detailOf(run('run-new', { cols: 100, rows: 30 }), 2, ['prompt> ']))
    await tick()
    expect(t.screen.text).toBe('prompt> h')
    expect(t.screen.resets).toEqual([false])

    t.session.input('i\r')
    t.session.onOutput(ev(4, { event: 'stdout', data: 'i\r\ngot:hi\r\n' }))
    t.session.onOutput(ev(5, { event: 'exit', code: 0 }))
    expect(t.screen.text).toBe('prompt> hi\r\ngot:hi\r\n' + HIDE_CURSOR)
    expect(t.session.get().view).toMatchObject({ status: 'exited', exitCode: 0 })
    expect(t.session.get().acceptsInput).toBe(false)
    t.session.input('ignored')
    t.session.resize(120, 40)
    expect(t.sent).toEqual([
      { type: 'terminal-input', runId: 'run-new', data: 'h' },
      { type: 'terminal-input', runId: 'run-new', data: 'i\r' },
    ])
  })

  it('reloads the focused run after a reconnect and applies only newer events', async () => {
    const t = setup()
    t.use()
    t.session.attachScreen(t.screen)
    await t.session.run('yes')
    t.api.details[0]?.resolve(detailOf(run('run-new'), 3, ['a', 'b']))
    await tick()
    expect(t.screen.text).toBe('ab')

    t.session.connectionChanged('connected')
    t.session.connectionChanged('reconnecting')
    t.session.connectionChanged('connected')
    expect(t.api.detailIds).toEqual(['run-new', 'run-new'])
    t.session.onOutput(ev(4, { event: 'stdout', data: 'c' }))
    t.session.onOutput(ev(5, { event: 'stdout', data: 'd' }))
    t.api.details[1]?.resolve(detailOf(run('run-new'), 4, ['a', 'b', 'c']))
    await tick()
    expect(t.screen.resets).toEqual([false, false])
    expect(t.screen.text).toBe('abcd')
  })

  it('restores the focused run of this tab after a reload once the screen is there', async () => {
    const storage = new MemoryStorage()
    storage.setItem(FOCUSED_RUN_KEY, 'run-old')
    const t = setup({ storage })
    t.api.list.runs = [run('run-old', { status: 'exited', exitCode: 0, captured: true })]
    t.use()
    await tick()
    expect(t.api.detailIds).toEqual([]) // no screen yet
    t.session.attachScreen(t.screen)
    expect(t.api.detailIds).toEqual(['run-old'])
    t.api.details[0]?.resolve(detailOf(run('run-old', { status: 'exited', exitCode: 0, captured: true }), 2, ['old\n']))
    await tick()
    expect(t.screen.text).toBe('old\n' + HIDE_CURSOR)
    expect(t.screen.resets).toEqual([true])
    expect(t.session.get().view).toMatchObject({ status: 'exited', exitCode: 0 })
  })

  it('forgets a focused run the server no longer knows', async () => {
    const storage = new MemoryStorage()
    storage.setItem(FOCUSED_RUN_KEY, 'run-gone')
    const t = setup({ storage })
    t.use()
    t.session.attachScreen(t.screen)
    t.api.details[0]?.reject(new ApiError(404, 'no such run'))
    await tick()
    expect(t.session.get()).toMatchObject({ focusedRunId: null, view: null })
    expect(storage.getItem(FOCUSED_RUN_KEY)).toBeNull()
  })

  it('asks for the terminal token on a 401 about it and retries with it', async () => {
    const t = setup()
    t.use()
    await tick()
    t.api.startAnswer = async (auth) => {
      if (auth.terminalToken !== 'tt') throw new ApiError(401, 'missing or wrong X-Terminal-Token')
      return { ok: true, runId: 'run-new' }
    }
    expect(await t.session.run('ls')).toBe(false)
    expect(t.session.get().tokenPrompt).toBe(true)
    expect(t.session.get().message?.text).toMatch(/terminal token/)
    expect(await t.session.submitToken(' tt ')).toBe(true)
    expect(t.api.starts.map((s) => s.auth.terminalToken)).toEqual([undefined, 'tt'])
    expect(t.storage.getItem(TERMINAL_TOKEN_KEY)).toBe('tt')
    expect(t.session.get()).toMatchObject({
      tokenPrompt: false,
      message: null,
      focusedRunId: 'run-new',
      lastStarted: { runId: 'run-new', command: 'ls' },
    })
    t.session.input('x')
    expect(t.sent).toEqual([{ type: 'terminal-input', runId: 'run-new', data: 'x', terminalToken: 'tt' }])
  })

  it('uses the desktop terminal token without asking', async () => {
    const t = setup({ desktopToken: 'desk' })
    t.use()
    await t.session.run('ls')
    expect(t.api.starts[0]?.auth).toEqual({ clientId: ME, terminalToken: 'desk' })
  })

  it('shows refusals as messages', async () => {
    const t = setup()
    t.use()
    t.api.startAnswer = async () => {
      throw new ApiError(429, 'too many terminal runs (2 active)')
    }
    expect(await t.session.run('ls')).toBe(false)
    expect(t.session.get()).toMatchObject({ tokenPrompt: false, starting: false })
    expect(t.session.get().message?.text).toMatch(/^too many terminal runs \(2 active\)/)
    expect(await t.session.run('   ')).toBe(false)
    expect(t.session.get().message?.text).toMatch(/Type a command/)
    expect(t.api.starts).toHaveLength(1)
  })

  it('kills the focused run and reports it as killed', async () => {
    const t = setup()
    t.use()
    t.session.attachScreen(t.screen)
    await t.session.run('sleep 100')
    t.api.details[0]?.resolve(detailOf(run('run-new'), 1, []))
    await tick()
    t.session.kill()
    expect(t.api.kills).toEqual(['run-new'])
    t.session.onOutput(ev(2, { event: 'exit', code: 143 }))
    expect(t.session.get().view).toMatchObject({ status: 'killed', exitCode: 143 })
  })

  it('reloads the list when a run it does not know starts (an agent run)', async () => {
    const t = setup()
    t.use()
    await tick()
    expect(t.api.listCalls).toBe(1)
    t.session.onOutput(ev(1, { event: 'start', command: 'ls', maxDurationMs: 1000 }, 'run-agent'))
    t.session.onOutput(ev(2, { event: 'stdout', data: 'x' }, 'run-agent'))
    await t.flushTimers()
    expect(t.api.listCalls).toBe(2)
    t.session.onOutput(ev(1, { event: 'start', command: 'ls', maxDurationMs: 1000 }, 'run-agent'))
    await t.flushTimers()
    expect(t.api.listCalls).toBe(2)
  })

  it('does not send input to runs of other tabs or agent runs', async () => {
    const t = setup()
    t.api.list.runs = [run('run-agent', { clientId: '', agent: true })]
    t.use()
    t.session.attachScreen(t.screen)
    await tick()
    t.session.focusRun('run-agent')
    t.api.details[0]?.resolve(detailOf(run('run-agent', { clientId: '', agent: true }), 1, []))
    await tick()
    expect(t.session.get()).toMatchObject({ focusedRunId: 'run-agent', acceptsInput: false })
    t.session.input('x')
    expect(t.sent).toEqual([])
  })

  it('matches the run to its view size when it is focused again', async () => {
    const t = setup()
    t.api.list.runs = [run('run-mine', { cols: 80, rows: 24 })]
    t.use()
    t.session.attachScreen(t.screen)
    await tick()
    t.session.focusRun('run-mine')
    t.api.details[0]?.resolve(detailOf(run('run-mine', { cols: 80, rows: 24 }), 1, []))
    await tick()
    expect(t.sent).toEqual([{ type: 'terminal-resize', runId: 'run-mine', cols: 100, rows: 30 }])
  })
})
