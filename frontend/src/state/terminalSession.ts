// The terminal panel's logic, outside React: the run list, the focused run
// (merged from scrollback and live events by terminalSync.ts), starting,
// killing, keystrokes, resizes and the terminal token. The session is a
// Store (store.ts) of its snapshot; the panel renders it and gives the
// session an xterm-backed TerminalScreen.

import { ApiError, isUnauthorized } from '../api/rest'
import type { ApiClient } from '../api/rest'
import type { ConnectionState } from '../api/ws'
import type { TerminalOutputMessage, TerminalRun, TerminalRunDetail, TerminalRunList } from '../api/terminalTypes'
import { Store } from './store'
import type { TerminalBridge } from './terminalBridge'
import { commandProblem, mentionsTerminalToken, splitInput } from './terminalFormat'
import {
  adoptRunInfo,
  applyEvent,
  applySnapshot,
  beginSync,
  markKillRequested,
  restartSync,
  type RunSync,
  type SyncStep,
} from './terminalSync'

/** What the session needs of the terminal view (xterm.js in the app, a fake in tests). */
export interface TerminalScreen {
  /** Clears everything, in order with earlier writes; captured runs convert \n to \r\n. */
  reset(captured: boolean): void
  write(data: string): void
  size(): { cols: number; rows: number }
  focus(): void
}

export interface TerminalMessage {
  tone: 'error' | 'info'
  text: string
}

export interface SessionSnapshot {
  /** The last run list (null before the first answer). */
  info: TerminalRunList | null
  /** Why the run list could not be loaded. */
  loadError: string | null
  /** This tab's runs and agent runs, newest first. */
  runs: TerminalRun[]
  focusedRunId: string | null
  /** The focused run's state (null when none is focused). */
  view: RunSync | null
  /** Keystrokes go to the focused run (it is running and this tab started it). */
  acceptsInput: boolean
  message: TerminalMessage | null
  starting: boolean
  /** Starting a run needs the terminal token the user has not given (or gave wrong). */
  tokenPrompt: boolean
  /** The last run this tab started, with the command line as typed (the command line clears itself). */
  lastStarted: { runId: string; command: string } | null
}

export type SessionStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>

export const FOCUSED_RUN_KEY = 'wisp.terminal.focusedRun'
export const TERMINAL_TOKEN_KEY = 'wisp.terminalToken'

/** DECTCEM off: the cursor of an ended run is hidden (reset() shows it again). */
export const HIDE_CURSOR = '\x1b[?25l'

/** Delay before the run list is reloaded after a start or an end event (events come in bursts). */
export const LIST_REFRESH_DELAY_MS = 150
/** A {"type":"error"} frame this soon after a terminal frame is taken as its answer. */
const ERROR_CORRELATION_MS = 3000

export interface SessionOptions {
  bridge: TerminalBridge
  storage?: SessionStorage | undefined
  now?: () => number
  setTimer?: (fn: () => void, ms: number) => unknown
  clearTimer?: (handle: unknown) => void
}

export class TerminalSession extends Store<SessionSnapshot> {
  private bridge: TerminalBridge
  private readonly storage: SessionStorage | undefined
  private readonly now: () => number
  private readonly setTimer: (fn: () => void, ms: number) => unknown
  private readonly clearTimer: (handle: unknown) => void

  private api: ApiClient | null = null
  private screen: TerminalScreen | null = null
  private sync: RunSync | null = null
  /** Bumped by every scrollback fetch; older answers are dropped. */
  private generation = 0
  private listGeneration = 0
  private owned = false
  private userToken: string
  private pendingCommand: string | null = null
  private refreshTimer: unknown = null
  private lastTerminalSend = -Infinity
  private everConnected = false
  private disconnected = false
  private known = new Set<string>()

  constructor(opts: SessionOptions) {
    super({
      info: null,
      loadError: null,
      runs: [],
      focusedRunId: readKey(opts.storage, FOCUSED_RUN_KEY),
      view: null,
      acceptsInput: false,
      message: null,
      starting: false,
      tokenPrompt: false,
      lastStarted: null,
    })
    this.bridge = opts.bridge
    this.storage = opts.storage
    this.now = opts.now ?? (() => Date.now())
    this.setTimer = opts.setTimer ?? ((fn, ms) => setTimeout(fn, ms))
    this.clearTimer = opts.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>))
    this.userToken = readKey(this.storage, TERMINAL_TOKEN_KEY) ?? ''
  }

  private get snap(): SessionSnapshot {
    return this.get()
  }

  private update(patch: Partial<SessionSnapshot>): void {
    const next = { ...this.snap, ...patch }
    next.acceptsInput = this.acceptsInput(next.view)
    this.set(next)
  }

  /** Stops timers; the session can be used again afterwards. */
  dispose(): void {
    if (this.refreshTimer !== null) this.clearTimer(this.refreshTimer)
    this.refreshTimer = null
  }

  // Inputs from the app

  setBridge(bridge: TerminalBridge): void {
    this.bridge = bridge
  }

  /** A new API client (first connection or another API token): reload everything. */
  setApi(api: ApiClient | null): void {
    if (api === this.api) return
    this.api = api
    if (api === null) return
    void this.refreshList()
    this.resyncFocused()
  }

  /** After /ws comes back, events may have been missed: reload the list and the focused run. */
  connectionChanged(state: ConnectionState): void {
    if (state === 'connected') {
      const reconnected = this.everConnected && this.disconnected
      this.everConnected = true
      this.disconnected = false
      if (reconnected) {
        void this.refreshList()
        this.resyncFocused()
      }
      return
    }
    if (this.everConnected) this.disconnected = true
  }

  attachScreen(screen: TerminalScreen | null): void {
    this.screen = screen
    if (screen !== null) this.resyncFocused()
  }

  /** The token the user typed in this tab, else the desktop window's. */
  terminalToken(): string {
    return this.userToken || this.bridge.desktopToken
  }

  // Run list

  async refreshList(): Promise<void> {
    const api = this.api
    if (api === null) return
    const gen = ++this.listGeneration
    try {
      const info = await api.listTerminalRuns()
      if (gen !== this.listGeneration || api !== this.api) return
      for (const r of info.runs) this.known.add(r.runId)
      const runs = info.runs.filter((r) => r.agent || (r.clientId !== '' && r.clientId === this.bridge.clientId))
      const patch: Partial<SessionSnapshot> = { info, runs, loadError: null }
      const entry = this.sync === null ? undefined : info.runs.find((r) => r.runId === this.sync?.runId)
      if (this.sync !== null && entry !== undefined) {
        const adopted = adoptRunInfo(this.sync, entry)
        if (adopted !== this.sync) {
          this.sync = adopted
          patch.view = adopted
        }
      }
      this.update(patch)
    } catch (err) {
      if (gen !== this.listGeneration || api !== this.api) return
      const text = isUnauthorized(err)
        ? 'The server wants the API token; enter it to use the terminal.'
        : `Cannot load the terminal runs: ${errorText(err)}`
      this.update({ loadError: text })
    }
  }

  private scheduleRefresh(delay = LIST_REFRESH_DELAY_MS): void {
    if (this.refreshTimer !== null) return
    this.refreshTimer = this.setTimer(() => {
      this.refreshTimer = null
      void this.refreshList()
    }, delay)
  }

  // Focus and scrollback

  /** Shows runId in the terminal: its scrollback, then its live output. */
  focusRun(runId: string): void {
    const entry = this.snap.info?.runs.find((r) => r.runId === runId)
    this.owned = entry !== undefined && !entry.agent && entry.clientId === this.bridge.clientId
    this.setFocused(runId)
    this.sync = beginSync(
      runId,
      entry === undefined ? {} : { status: entry.status, captured: entry.captured, maxDurationMs: entry.maxDurationMs },
    )
    this.update({ view: this.sync })
    this.fetchSnapshot()
    if (this.snap.acceptsInput) this.screen?.focus()
  }

  private setFocused(runId: string | null): void {
    if (runId === null) this.storage?.removeItem(FOCUSED_RUN_KEY)
    else this.storage?.setItem(FOCUSED_RUN_KEY, runId)
    this.update({ focusedRunId: runId })
  }

  private resyncFocused(): void {
    const runId = this.snap.focusedRunId
    if (runId === null) return
    if (this.sync === null || this.sync.runId !== runId) {
      this.sync = beginSync(runId)
      this.update({ view: this.sync })
    }
    this.fetchSnapshot()
  }

  private fetchSnapshot(): void {
    const sync = this.sync
    const api = this.api
    if (sync === null) return
    this.sync = restartSync(sync)
    if (api === null || this.screen === null) return // setApi / attachScreen come back here
    const gen = ++this.generation
    const runId = sync.runId
    api.getTerminalRun(runId).then(
      (detail) => {
        if (gen !== this.generation || this.sync?.runId !== runId) return
        this.owned = !detail.agent && detail.clientId !== '' && detail.clientId === this.bridge.clientId
        this.apply(applySnapshot(this.sync, detail))
        this.matchSize(detail)
      },
      (err: unknown) => {
        if (gen !== this.generation || this.sync?.runId !== runId) return
        if (err instanceof ApiError && err.status === 404) {
          this.sync = null
          this.owned = false
          this.screen?.reset(false)
          this.setFocused(null)
          this.update({
            view: null,
            message: { tone: 'info', text: 'That run is gone (runs are kept in memory until Wisp restarts).' },
          })
          return
        }
        this.update({ message: { tone: 'error', text: `Cannot load the run's output: ${errorText(err)}` } })
      },
    )
  }

  /** A running run of this tab gets the size of this view. */
  private matchSize(detail: TerminalRunDetail): void {
    if (!this.acceptsInput(this.sync) || this.screen === null) return
    const { cols, rows } = this.screen.size()
    if (cols !== detail.cols || rows !== detail.rows) this.sendResize(detail.runId, cols, rows)
  }

  private apply(step: SyncStep): void {
    const before = this.sync
    this.sync = step.sync
    const screen = this.screen
    if (screen !== null) {
      if (step.reset) screen.reset(step.sync.captured)
      for (const data of step.writes) screen.write(data)
      const ended = step.sync.status !== 'running' && step.sync.phase === 'live'
      if (ended && (step.reset || before?.status === 'running' || before?.phase !== 'live')) {
        screen.write(HIDE_CURSOR) // nothing more can be typed into an ended run
      }
    }
    if (before === null || viewChanged(before, step.sync) || this.acceptsInput(step.sync) !== this.snap.acceptsInput) {
      this.update({ view: step.sync })
    }
    if (step.resync) this.fetchSnapshot()
  }

  // Live events

  onOutput(ev: TerminalOutputMessage): void {
    if (ev.event === 'start' && !this.known.has(ev.runId)) {
      this.known.add(ev.runId)
      this.scheduleRefresh(0)
    } else if (ev.event === 'exit' || ev.event === 'error') {
      this.scheduleRefresh()
    }
    if (this.sync !== null && ev.runId === this.sync.runId) this.apply(applyEvent(this.sync, ev))
  }

  onServerError(message: string): void {
    if (this.now() - this.lastTerminalSend > ERROR_CORRELATION_MS) return
    this.update({ message: { tone: 'error', text: message } })
  }

  // Actions

  /** Starts a run; resolves true when it started (and is focused). */
  async run(command: string): Promise<boolean> {
    const problem = commandProblem(command)
    if (problem !== null) {
      this.update({ message: { tone: 'error', text: problem } })
      return false
    }
    const api = this.api
    if (api === null || this.snap.starting) return false
    this.update({ starting: true })
    const size = this.screen?.size()
    const token = this.terminalToken()
    try {
      const req = { command: command.trim(), ...(size === undefined ? {} : { cols: size.cols, rows: size.rows }) }
      const auth = { clientId: this.bridge.clientId, ...(token === '' ? {} : { terminalToken: token }) }
      const { runId } = await api.startTerminalRun(req, auth)
      this.pendingCommand = null
      this.known.add(runId)
      this.owned = true
      this.setFocused(runId)
      this.sync = beginSync(runId, { status: 'running' })
      this.update({ view: this.sync, message: null, tokenPrompt: false, starting: false, lastStarted: { runId, command } })
      this.fetchSnapshot()
      this.screen?.focus()
      this.scheduleRefresh(0)
      return true
    } catch (err) {
      const message = errorText(err)
      if (isUnauthorized(err) && (mentionsTerminalToken(message) || this.snap.info?.tokenRequired === true)) {
        this.pendingCommand = command
        const text =
          token === ''
            ? 'Starting a run needs the terminal token (WISP_TERMINAL_RUN_TOKEN or api.terminalToken).'
            : `The server refused the terminal token: ${message}`
        this.update({ starting: false, tokenPrompt: true, message: { tone: 'error', text } })
      } else {
        this.update({ starting: false, message: { tone: 'error', text: message } })
      }
      return false
    }
  }

  /** Keeps the terminal token for this tab and retries the command that needed it. */
  async submitToken(token: string): Promise<boolean> {
    const trimmed = token.trim()
    if (trimmed === '') return false
    this.userToken = trimmed
    this.storage?.setItem(TERMINAL_TOKEN_KEY, trimmed)
    this.update({ tokenPrompt: false, message: null })
    const pending = this.pendingCommand
    if (pending === null) return false
    return this.run(pending)
  }

  cancelTokenPrompt(): void {
    this.pendingCommand = null
    this.update({ tokenPrompt: false, message: null })
  }

  dismissMessage(): void {
    this.update({ message: null })
  }

  kill(): void {
    const sync = this.sync
    const api = this.api
    if (sync === null || sync.status !== 'running' || api === null) return
    this.sync = markKillRequested(sync)
    api.killTerminalRun(sync.runId).then(
      () => this.scheduleRefresh(),
      (err: unknown) => {
        if (err instanceof ApiError && err.status === 409) {
          this.scheduleRefresh(0) // it had ended already
          return
        }
        this.update({ message: { tone: 'error', text: `Cannot kill the run: ${errorText(err)}` } })
      },
    )
  }

  /** Keystrokes from the terminal view. */
  input(data: string): void {
    const sync = this.sync
    if (sync === null || !this.acceptsInput(sync)) return
    const token = this.terminalToken()
    this.lastTerminalSend = this.now()
    for (const piece of splitInput(data)) this.bridge.sendInput(sync.runId, piece, token === '' ? undefined : token)
  }

  /** The view's new size (already debounced by the caller). */
  resize(cols: number, rows: number): void {
    const sync = this.sync
    if (sync === null || !this.acceptsInput(sync)) return
    this.sendResize(sync.runId, cols, rows)
  }

  private sendResize(runId: string, cols: number, rows: number): void {
    if (cols < 1 || rows < 1 || cols > 500 || rows > 500) return
    this.lastTerminalSend = this.now()
    this.bridge.sendResize(runId, cols, rows)
  }

  private acceptsInput(view: RunSync | null): boolean {
    return view !== null && view.status === 'running' && this.owned && this.sync?.runId === view.runId
  }

}

function readKey(storage: SessionStorage | undefined, key: string): string | null {
  try {
    const v = storage?.getItem(key)
    return v === undefined || v === null || v === '' ? null : v
  } catch {
    return null
  }
}

function viewChanged(a: RunSync, b: RunSync): boolean {
  return (
    a.runId !== b.runId ||
    a.phase !== b.phase ||
    a.status !== b.status ||
    a.exitCode !== b.exitCode ||
    a.error !== b.error ||
    a.maxDurationMs !== b.maxDurationMs ||
    a.captured !== b.captured
  )
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
