// The terminal dock (loaded lazily, with xterm.js): recent runs, the focused
// run in a terminal view, a command line, kill, the exit status, and the
// shell-off explanation. The logic is in state/terminalSession.ts.

import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from 'react'
import type { TerminalRun, TerminalRunList } from '../api'
import { escapeHidden } from '../hiddenChars'
import { useApi, useAppState, useWisp } from '../state/WispProvider'
import { formatRunStatus, runBadge, runTone } from '../state/terminalFormat'
import type { SessionSnapshot, TerminalSession } from '../state/terminalSession'
import type { TerminalRunRequest } from '../state/terminalOpener'
import type { RunSync } from '../state/terminalSync'
import { useTerminalSession } from '../state/useTerminalSession'
import { HiddenText } from './HiddenText'
import { XtermScreen } from './XtermScreen'

interface Props {
  onClose(): void
  /** A run to focus ("Show in Terminal" on a tool card); each new request focuses it again. */
  focusRun?: TerminalRunRequest | null
}

export default function TerminalPanel({ onClose, focusRun = null }: Props) {
  const { terminal } = useWisp()
  const api = useApi()
  const connection = useAppState((s) => s.connection)
  const agentState = useAppState((s) => s.status?.state)
  const [session, snap] = useTerminalSession(api, connection, terminal)
  const { info, view } = snap
  const enabled = info?.enabled === true
  useReloadAfterRestart(session, agentState)
  useEffect(() => {
    if (focusRun !== null) session.focusRun(focusRun.runId)
  }, [session, focusRun])

  return (
    <section className="terminal-dock" id="terminal-panel" aria-label="Terminal" data-testid="terminal-panel">
      <div className="terminal-head">
        <h2 className="panel-title">Terminal</h2>
        {enabled && view !== null ? (
          <span
            className={`terminal-status tone-${runTone(view.status, view.exitCode)}`}
            data-testid="terminal-status"
            data-status={view.status}
            role="status"
            title={view.runId}
          >
            {formatRunStatus(view)}
          </span>
        ) : null}
        <div className="terminal-head-actions">
          {enabled ? (
            <button
              type="button"
              className="header-button"
              data-testid="terminal-kill"
              disabled={view?.status !== 'running'}
              title="Stop the focused run (SIGTERM, then SIGKILL)"
              onClick={() => session.kill()}
            >
              Kill
            </button>
          ) : null}
          <button type="button" className="icon-button terminal-close" aria-label="Close the terminal" onClick={onClose}>
            ×
          </button>
        </div>
      </div>
      <TerminalBody session={session} snap={snap} />
    </section>
  )
}

/** Shell access and the limits change with a restart: reload the run list when the agent runs again. */
function useReloadAfterRestart(session: TerminalSession, agentState: string | undefined): void {
  const previous = useRef(agentState)
  useEffect(() => {
    const was = previous.current
    previous.current = agentState
    if (agentState === 'running' && was !== undefined && was !== 'running') void session.refreshList()
  }, [session, agentState])
}

function TerminalBody({ session, snap }: { session: TerminalSession; snap: SessionSnapshot }) {
  const { info, loadError } = snap
  if (info === null) {
    return <p className={loadError === null ? 'empty terminal-note' : 'terminal-note terminal-error'}>{loadError ?? 'Loading…'}</p>
  }
  if (!info.enabled) return <ShellOff info={info} />
  return (
    <>
      <div className="terminal-body">
        <RunList runs={snap.runs} focusedRunId={snap.focusedRunId} view={snap.view} onFocus={(id) => session.focusRun(id)} />
        <XtermScreen
          onReady={(screen) => session.attachScreen(screen)}
          onData={(data) => session.input(data)}
          onResize={(cols, rows) => session.resize(cols, rows)}
        />
      </div>
      {loadError !== null ? <p className="terminal-message tone-error">{loadError}</p> : null}
      {snap.message !== null ? (
        <p className={`terminal-message tone-${snap.message.tone}`} role="alert" data-testid="terminal-message">
          <span>{snap.message.text}</span>
          <button type="button" className="icon-button" aria-label="Dismiss the message" onClick={() => session.dismissMessage()}>
            ×
          </button>
        </p>
      ) : null}
      {snap.tokenPrompt ? <TokenPrompt session={session} /> : null}
      <CommandLine session={session} starting={snap.starting} lastStarted={snap.lastStarted} />
    </>
  )
}

function ShellOff({ info }: { info: TerminalRunList }) {
  const path = info.configPath || 'wisp.json in the Wisp state folder'
  return (
    <div className="terminal-disabled" data-testid="terminal-disabled">
      <p>
        <strong>Shell access is off.</strong> Wisp runs no shell commands until you turn it on.
      </p>
      <p>
        To turn it on, use Shell access in Settings, or set <code>{'"features": {"shellEnabled": true}'}</code> in{' '}
        <code className="path">{path}</code>, and restart Wisp.
      </p>
    </div>
  )
}

function RunList({
  runs,
  focusedRunId,
  view,
  onFocus,
}: {
  runs: TerminalRun[]
  focusedRunId: string | null
  view: RunSync | null
  onFocus(runId: string): void
}) {
  if (runs.length === 0) {
    return (
      <div className="terminal-runs">
        <p className="empty">No runs yet.</p>
      </div>
    )
  }
  return (
    <ul className="terminal-runs" aria-label="Recent runs">
      {runs.map((run) => {
        const focused = run.runId === focusedRunId
        // The focused run's live state is newer than the list's until the list is reloaded.
        const live = focused && view !== null && view.runId === run.runId && view.status !== 'running'
        const status = live ? view.status : run.status
        const exitCode = live ? view.exitCode : run.exitCode
        return (
          <li key={run.runId}>
            <button
              type="button"
              className={`terminal-run${focused ? ' active' : ''}`}
              data-testid="terminal-run"
              data-run-id={run.runId}
              data-status={status}
              aria-current={focused ? 'true' : undefined}
              title={escapeHidden(run.command)}
              onClick={() => onFocus(run.runId)}
            >
              <code className="terminal-run-command as-run">
                <HiddenText text={run.command} newline="escape" />
              </code>
              <span className="terminal-run-meta">
                <span className={`run-badge tone-${runTone(status, exitCode)}`}>{runBadge(status)}</span>
                {exitCode !== null ? <span className="run-exit">exit {exitCode}</span> : null}
                {run.agent ? <span className="run-agent">agent</span> : null}
              </span>
            </button>
          </li>
        )
      })}
    </ul>
  )
}

const HISTORY_MAX = 50

function CommandLine({
  session,
  starting,
  lastStarted,
}: {
  session: TerminalSession
  starting: boolean
  lastStarted: SessionSnapshot['lastStarted']
}) {
  const [command, setCommand] = useState('')
  const history = useRef<string[]>([])
  const cursor = useRef(-1)

  // A started command (also one retried after the terminal token prompt) goes to the history and leaves the line.
  useEffect(() => {
    if (lastStarted === null) return
    const text = lastStarted.command
    history.current = [text, ...history.current.filter((h) => h !== text)].slice(0, HISTORY_MAX)
    cursor.current = -1
    setCommand((now) => (now === text ? '' : now))
  }, [lastStarted])

  const submit = (e: FormEvent) => {
    e.preventDefault()
    if (command.trim() !== '') void session.run(command)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
    const list = history.current
    if (list.length === 0) return
    e.preventDefault()
    cursor.current = e.key === 'ArrowUp' ? Math.min(cursor.current + 1, list.length - 1) : Math.max(cursor.current - 1, -1)
    setCommand(cursor.current === -1 ? '' : (list[cursor.current] ?? ''))
  }

  return (
    <form className="terminal-command-line" onSubmit={submit}>
      <label htmlFor="terminal-command" className="visually-hidden">
        Command
      </label>
      <span className="terminal-prompt" aria-hidden="true">
        $
      </span>
      <input
        id="terminal-command"
        data-testid="terminal-command"
        type="text"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        placeholder="A command to run, e.g. ls -la"
        value={command}
        onChange={(e) => {
          cursor.current = -1
          setCommand(e.target.value)
        }}
        onKeyDown={onKeyDown}
      />
      <button type="submit" className="terminal-run-button" data-testid="terminal-run-button" disabled={starting || command.trim() === ''}>
        {starting ? 'Starting…' : 'Run'}
      </button>
    </form>
  )
}

function TokenPrompt({ session }: { session: TerminalSession }) {
  const [value, setValue] = useState('')
  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    if (value.trim() !== '') void session.submitToken(value)
  }
  return (
    <form className="terminal-token" data-testid="terminal-token-form" onSubmit={onSubmit}>
      <label>
        Terminal token
        <input
          type="password"
          data-testid="terminal-token-input"
          autoComplete="off"
          autoFocus
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </label>
      <button type="submit" className="header-button" disabled={value.trim() === ''}>
        Use token
      </button>
      <button type="button" className="header-button" onClick={() => session.cancelTokenPrompt()}>
        Cancel
      </button>
    </form>
  )
}
