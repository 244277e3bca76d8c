// The one store of the app: owns the API client and the WispSocket for this
// page, feeds their results into the reducer and exposes state + actions
// through context. The one thing that changes many times a second, the text
// of a streaming reply, lives in the ReplyStore instead (provided beside the
// context, read by the reply's bubble through useLiveReply), so a token does
// not re-render everything that reads the context. Nothing else holds
// mutable shared state.

import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import {
  ApiClient,
  Listeners,
  WispSocket,
  isEnvelope,
  isUnauthorized,
  resolveConnection,
  reresolveOnClose,
  saveToken,
  tabClientId,
  type Approval,
  type ClientMessage,
  type Clock,
  type CloseInfo,
  type EmoteMessage,
  type McpServer,
  type ProactiveMessageFrame,
  type ResolvedConnection,
  type SocketFactory,
  type TerminalOutputMessage,
  type Unsubscribe,
} from '../api'
import { ApprovalStore } from './approvalStore'
import type { EmoteBridge } from './emoteBridge'
import { McpStore } from './mcpStore'
import { initialState, reducer, type Action, type AppState } from './reducer'
import { ReplyStore, type FrameScheduler } from './replyStore'
import type { TerminalBridge } from './terminalBridge'
import { ApprovalStoreContext, useApprovalFeed } from './useApprovals'
import { McpStoreContext, useMcpFeed } from './useMcpServers'
import { useChat, type ChatActions } from './useChat'
import { useNotifications } from './useNotifications'
import { ReplyStoreContext } from './useLiveReply'
import { useProactive } from './useProactive'
import { useReminders, type ReminderActions } from './useReminders'
import { useRestart } from './useRestart'
import { useResync } from './useResync'
import { useTheme } from './useTheme'

export interface WispContextValue {
  state: AppState
  /** The API client once the server is known (null before). */
  api: ApiClient | null
  submitToken(token: string): void
  /** Reloads /api/status now (after the provider changed). */
  refreshStatus(): Promise<void>
  /** Opens or closes the provider form from the header. */
  setProviderSetupOpen(open: boolean): void
  chat: ChatActions
  /** The Reminders panel's create and delete. */
  reminders: ReminderActions
  /** /ws traffic of terminal runs for the terminal panel. */
  terminal: TerminalBridge
  /** Emote frames for the avatar stage. */
  emotes: EmoteBridge
  /** Restarts the agent to apply restart-only settings, and follows the server if it moved. */
  restartAgent(): Promise<void>
  /** "Later" on the restart banner: hidden until the reasons change. */
  dismissRestart(): void
  /** Restart-only settings were saved (an answer of the settings API): shows the banner now. */
  restartRequired(reasons: string[]): void
  /**
   * config-changed frames: the paths of settings that changed, by hand or
   * through the API; no paths when the page missed frames and any may have.
   */
  onConfigChanged(fn: (paths: string[]) => void): Unsubscribe
}

const WispContext = createContext<WispContextValue | null>(null)

export function useWisp(): WispContextValue {
  const value = useContext(WispContext)
  if (value === null) throw new Error('useWisp must be used inside <WispProvider>')
  return value
}

type Endpoint = Omit<ResolvedConnection, 'token'>

export interface WispProviderProps {
  children: ReactNode
  resolve?: () => Promise<ResolvedConnection>
  /** The page's WebSocket and the timers of its reconnects (tests pass fakes). */
  createSocket?: SocketFactory
  socketClock?: Clock
  /** The API client's fetch (tests pass a fake). */
  fetch?: typeof fetch
  /** When streaming replies are drawn: animation frames, or a clock the test drives. */
  frames?: FrameScheduler
}

export function WispProvider(props: WispProviderProps) {
  const { children, resolve = resolveConnection, createSocket, socketClock, fetch, frames } = props
  const [state, dispatch] = useReducer(reducer, initialState)
  const [replies] = useState(() => new ReplyStore(frames))
  const [approvals] = useState(() => new ApprovalStore())
  const [mcp] = useState(() => new McpStore())
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null)
  const [token, setToken] = useState('')
  const [resolveGeneration, setResolveGeneration] = useState(0)
  const reresolve = useCallback(() => setResolveGeneration((n) => n + 1), [])

  useResolveConnection(resolve, resolveGeneration, dispatch, setEndpoint, setToken)
  const socketEvents = useSocketEmitters()
  const mode = endpoint?.mode ?? null
  const onSocketClose = useCallback(
    (info: CloseInfo) => {
      if (reresolveOnClose(mode, info.code)) reresolve()
    },
    [mode, reresolve],
  )
  const socket = useSocket(endpoint?.wsURL ?? null, token, dispatch, socketEvents, onSocketClose, {
    createSocket,
    clock: socketClock,
  })
  const api = useMemo(
    () => (endpoint === null ? null : new ApiClient({ baseURL: endpoint.baseURL, token, ...(fetch === undefined ? {} : { fetch }) })),
    [endpoint, token, fetch],
  )
  useStatusLoader(api, token, state, dispatch)
  useUiReady(api, state)
  const onConfigChanged = useCallback(
    (fn: (paths: string[]) => void) => socketEvents.configChanged.add(fn),
    [socketEvents],
  )
  const ui = useTheme(api, state.apiReady, onConfigChanged)
  const sendWs = useCallback((msg: ClientMessage) => socket.current?.send(msg), [socket])
  const chat = useChat(api, state, dispatch, sendWs, replies, approvals.onChatFrame)
  const onApproval = useCallback((fn: (a: Approval) => void) => socketEvents.approvals.add(fn), [socketEvents])
  useApprovalFeed(approvals, api, state.apiReady, state.connection === 'connected', onApproval)
  const onMcpServers = useCallback((fn: (servers: McpServer[]) => void) => socketEvents.mcpServers.add(fn), [socketEvents])
  useMcpFeed(mcp, api, state.connection === 'connected', onMcpServers)
  const onProactive = useCallback(
    (fn: (frame: ProactiveMessageFrame) => void) => socketEvents.proactive.add(fn),
    [socketEvents],
  )
  useProactive(api, state, dispatch, onProactive)
  useNotifications({
    enabled: ui?.notifications === true,
    mode,
    agentName: state.status?.agentName || 'Wisp',
    openConversationId: state.chat.conversationId,
    open: chat.open,
    onProactive,
    onApproval,
  })
  const reminders = useReminders(api, state.apiReady, state.connection === 'connected', dispatch)

  const refreshStatus = useCallback(async () => {
    if (api === null) return
    try {
      dispatch({ type: 'status-loaded', status: await api.getStatus() })
    } catch (err) {
      console.warn('wisp: status refresh failed', err)
    }
  }, [api])
  const setProviderSetupOpen = useCallback((open: boolean) => dispatch({ type: 'provider-setup', open }), [])

  const { restartAgent, dismissRestart, restartRequired } = useRestart(api, endpoint, token, dispatch, refreshStatus, reresolve)

  const onResync = useCallback((fn: () => void) => socketEvents.resync.add(fn), [socketEvents])
  const configMayHaveChanged = useCallback(() => socketEvents.configChanged.emit([]), [socketEvents])
  useResync({ api, apiReady: state.apiReady, dispatch, chat, refreshStatus, configMayHaveChanged, onResync })

  const submitToken = useCallback(
    (next: string) => {
      const trimmed = next.trim()
      if (endpoint?.mode === 'browser') saveToken(trimmed)
      setToken(trimmed)
      socket.current?.setToken(trimmed)
      socket.current?.reconnectNow()
      dispatch({ type: 'token-submitted' })
    },
    [endpoint, socket],
  )

  const desktopTerminalToken = endpoint?.terminalToken ?? ''
  const terminal = useMemo<TerminalBridge>(
    () => ({
      clientId: tabClientId(),
      desktopToken: desktopTerminalToken,
      onOutput: (fn) => socketEvents.output.add(fn),
      onServerError: (fn) => socketEvents.errors.add(fn),
      sendInput: (runId, data, terminalToken) => socket.current?.sendTerminalInput(runId, data, terminalToken),
      sendResize: (runId, cols, rows) => socket.current?.sendTerminalResize(runId, cols, rows),
    }),
    [desktopTerminalToken, socketEvents, socket],
  )

  const emotes = useMemo<EmoteBridge>(() => ({ onEmote: (fn) => socketEvents.emotes.add(fn) }), [socketEvents])

  const value = useMemo<WispContextValue>(
    () => ({
      state,
      api,
      submitToken,
      refreshStatus,
      setProviderSetupOpen,
      chat,
      reminders,
      terminal,
      emotes,
      restartAgent,
      dismissRestart,
      restartRequired,
      onConfigChanged,
    }),
    [
      state,
      api,
      submitToken,
      refreshStatus,
      setProviderSetupOpen,
      chat,
      reminders,
      terminal,
      emotes,
      restartAgent,
      dismissRestart,
      restartRequired,
      onConfigChanged,
    ],
  )
  return (
    <ReplyStoreContext.Provider value={replies}>
      <ApprovalStoreContext.Provider value={approvals}>
        <McpStoreContext.Provider value={mcp}>
          <WispContext.Provider value={value}>{children}</WispContext.Provider>
        </McpStoreContext.Provider>
      </ApprovalStoreContext.Provider>
    </ReplyStoreContext.Provider>
  )
}

type Dispatch = (action: Action) => void

/** Finds the server at start, and again whenever generation changes (a desktop server that may have moved). */
function useResolveConnection(
  resolve: () => Promise<ResolvedConnection>,
  generation: number,
  dispatch: Dispatch,
  setEndpoint: (update: (prev: Endpoint | null) => Endpoint) => void,
  setToken: (t: string) => void,
): void {
  useEffect(() => {
    let cancelled = false
    resolve().then(
      ({ token, ...endpoint }) => {
        if (cancelled) return
        setToken(token)
        // The same address keeps the API client and socket (and the socket's lastEventId).
        setEndpoint((prev) => (prev !== null && sameEndpoint(prev, endpoint) ? prev : endpoint))
        dispatch({ type: 'mode', mode: endpoint.mode })
      },
      (err: unknown) => {
        if (!cancelled) dispatch({ type: 'error', message: `cannot find the Wisp server: ${String(err)}` })
      },
    )
    return () => {
      cancelled = true
    }
  }, [resolve, generation, dispatch, setEndpoint, setToken])
}

function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  return a.mode === b.mode && a.baseURL === b.baseURL && a.wsURL === b.wsURL && a.terminalToken === b.terminalToken
}

/** /ws frames fanned out to the panels that subscribe through the bridges. */
interface SocketEmitters {
  output: Listeners<TerminalOutputMessage>
  errors: Listeners<string>
  emotes: Listeners<EmoteMessage>
  configChanged: Listeners<string[]>
  proactive: Listeners<ProactiveMessageFrame>
  /** approval-requested and approval-decided frames (useApprovals.ts). */
  approvals: Listeners<Approval>
  /** mcp-servers frames: every MCP server (useMcpServers.ts). */
  mcpServers: Listeners<McpServer[]>
  /** The page missed /ws frames and reloads what it built from them (useResync.ts). */
  resync: Listeners<void>
}

function useSocketEmitters(): SocketEmitters {
  const [emitters] = useState<SocketEmitters>(() => ({
    output: new Listeners(),
    errors: new Listeners(),
    emotes: new Listeners(),
    configChanged: new Listeners(),
    proactive: new Listeners(),
    approvals: new Listeners(),
    mcpServers: new Listeners(),
    resync: new Listeners(),
  }))
  return emitters
}

/**
 * One socket per page (per ws URL); token changes reuse it so lastEventId
 * survives. A replay-truncated frame, or reconnecting after the server dropped
 * the socket for lagging (1013), asks for one resync per connection.
 */
function useSocket(
  wsURL: string | null,
  token: string,
  dispatch: Dispatch,
  emitters: SocketEmitters,
  onClose: (info: CloseInfo) => void,
  fakes: { createSocket: SocketFactory | undefined; clock: Clock | undefined },
) {
  const { createSocket, clock } = fakes
  const socket = useRef<WispSocket | null>(null)
  const tokenRef = useRef(token)
  tokenRef.current = token
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  // A token found again (desktop, after the server moved) is used from the next connection attempt.
  useEffect(() => socket.current?.setToken(token), [token])

  useEffect(() => {
    if (wsURL === null) return
    const sock = new WispSocket({
      wsURL,
      token: tokenRef.current,
      clientId: tabClientId(),
      ...(createSocket === undefined ? {} : { createSocket }),
      ...(clock === undefined ? {} : { clock }),
    })
    socket.current = sock
    let connections = 0
    let resyncedOn = -1
    let lagged = false
    const resync = () => {
      if (resyncedOn === connections) return
      resyncedOn = connections
      emitters.resync.emit()
    }
    const unsubscribe = [
      sock.onState((s) => {
        dispatch({ type: 'connection', state: s })
        if (s !== 'connected') return
        connections++
        if (lagged) {
          lagged = false
          resync()
        }
      }),
      sock.on('replay-truncated', (msg) => {
        console.warn(`wisp ws: missed events after ${msg.lastEventId} (the server keeps them from ${msg.oldestEventId}); reloading`)
        resync()
      }),
      sock.on('status', ({ type: _type, ...fields }) => dispatch({ type: 'status-frame', fields })),
      sock.onAny((msg) => {
        if (isEnvelope(msg)) dispatch({ type: 'envelope', envelope: msg })
      }),
      sock.on('error', (msg) => {
        console.warn('wisp ws: server error:', msg.message)
        emitters.errors.emit(msg.message)
      }),
      sock.on('terminal-output', (msg) => emitters.output.emit(msg)),
      sock.on('emote', (msg) => emitters.emotes.emit(msg)),
      sock.on('conversation-updated', (msg) => dispatch({ type: 'conversation-upserted', conversation: msg.conversation })),
      sock.on('display-message-saved', (msg) => dispatch({ type: 'display-message', message: msg.message })),
      sock.on('display-message-updated', (msg) => dispatch({ type: 'display-message', message: msg.message })),
      sock.on('restart-required', (msg) => dispatch({ type: 'restart-required', reasons: msg.reasons })),
      sock.on('config-error', (msg) => dispatch({ type: 'config-error', message: msg.message })),
      sock.on('config-changed', (msg) => emitters.configChanged.emit(msg.paths)),
      sock.on('proactive-message', (msg) => emitters.proactive.emit(msg)),
      sock.on('reminder-updated', (msg) => dispatch({ type: 'reminder-upserted', reminder: msg.reminder })),
      sock.on('reminder-deleted', (msg) => dispatch({ type: 'reminder-removed', id: msg.id })),
      sock.on('approval-requested', (msg) => emitters.approvals.emit(msg.approval)),
      sock.on('approval-decided', (msg) => emitters.approvals.emit(msg.approval)),
      sock.on('mcp-servers', (msg) => emitters.mcpServers.emit(msg.servers)),
      sock.onClose((info) => {
        if (info.lagged) lagged = true
        if (info.authRejected) dispatch({ type: tokenRef.current === '' ? 'token-required' : 'token-rejected' })
        onCloseRef.current(info)
      }),
    ]
    sock.start()
    return () => {
      for (const off of unsubscribe) off()
      sock.stop()
      socket.current = null
    }
  }, [wsURL, dispatch, emitters, createSocket, clock])

  return socket
}

/** Loads /api/status until it succeeds: per API client (token) and whenever /ws (re)connects. */
function useStatusLoader(api: ApiClient | null, token: string, state: AppState, dispatch: Dispatch): void {
  const { apiReady } = state
  const connected = state.connection === 'connected'
  useEffect(() => {
    if (api === null || apiReady) return
    let cancelled = false
    api.getStatus().then(
      (status) => {
        if (!cancelled) dispatch({ type: 'status-loaded', status })
      },
      (err: unknown) => {
        if (cancelled) return
        if (isUnauthorized(err)) dispatch({ type: token === '' ? 'token-required' : 'token-rejected' })
        else dispatch({ type: 'error', message: err instanceof Error ? err.message : String(err) })
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, token, apiReady, connected, dispatch])
}

/**
 * Tells the server once per page load that the UI has both its API and its
 * socket and has painted: the report waits for the second animation frame
 * after the first render with data, by which time the browser has produced a
 * frame showing it (a hidden page sends it once it is shown).
 */
function useUiReady(api: ApiClient | null, state: AppState): void {
  const sent = useRef(false)
  const ready = state.apiReady && state.connection === 'connected'
  useEffect(() => {
    if (!ready || api === null || sent.current) return
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => {
        sent.current = true
        api.uiReady({ painted: true }).catch((err: unknown) => {
          sent.current = false
          console.warn('wisp: ui ready call failed', err)
        })
      })
    })
    return () => cancelAnimationFrame(frame)
  }, [ready, api])
}
