// The one store of the app: owns the API client and the WispSocket for this
// page, feeds their results into the reducer and exposes state + actions
// through context. Nothing else holds mutable shared state.

import { createContext, useCallback, useContext, useEffect, useMemo, useReducer, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import {
  ApiClient,
  Listeners,
  WispSocket,
  isEnvelope,
  isUnauthorized,
  resolveConnection,
  saveToken,
  tabClientId,
  type ClientMessage,
  type EmoteMessage,
  type ResolvedConnection,
  type TerminalOutputMessage,
} from '../api'
import type { EmoteBridge } from './emoteBridge'
import { initialState, reducer, type Action, type AppState } from './reducer'
import type { TerminalBridge } from './terminalBridge'
import { useChat, type ChatActions } from './useChat'

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
  /** /ws traffic of terminal runs for the terminal panel. */
  terminal: TerminalBridge
  /** Emote frames for the avatar stage. */
  emotes: EmoteBridge
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
}

export function WispProvider({ children, resolve = resolveConnection }: WispProviderProps) {
  const [state, dispatch] = useReducer(reducer, initialState)
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null)
  const [token, setToken] = useState('')

  useResolveConnection(resolve, dispatch, setEndpoint, setToken)
  const socketEvents = useSocketEmitters()
  const socket = useSocket(endpoint?.wsURL ?? null, token, dispatch, socketEvents)
  const api = useMemo(
    () => (endpoint === null ? null : new ApiClient({ baseURL: endpoint.baseURL, token })),
    [endpoint, token],
  )
  useStatusLoader(api, token, state, dispatch)
  useUiReady(api, state)
  const sendWs = useCallback((msg: ClientMessage) => socket.current?.send(msg), [socket])
  const chat = useChat(api, state, dispatch, sendWs)

  const refreshStatus = useCallback(async () => {
    if (api === null) return
    try {
      dispatch({ type: 'status-loaded', status: await api.getStatus() })
    } catch (err) {
      console.warn('wisp: status refresh failed', err)
    }
  }, [api])
  const setProviderSetupOpen = useCallback((open: boolean) => dispatch({ type: 'provider-setup', open }), [])

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

  const value = useMemo(
    () => ({ state, api, submitToken, refreshStatus, setProviderSetupOpen, chat, terminal, emotes }),
    [state, api, submitToken, refreshStatus, setProviderSetupOpen, chat, terminal, emotes],
  )
  return <WispContext.Provider value={value}>{children}</WispContext.Provider>
}

type Dispatch = (action: Action) => void

function useResolveConnection(
  resolve: () => Promise<ResolvedConnection>,
  dispatch: Dispatch,
  setEndpoint: (e: Endpoint) => void,
  setToken: (t: string) => void,
): void {
  useEffect(() => {
    let cancelled = false
    resolve().then(
      ({ token, ...endpoint }) => {
        if (cancelled) return
        setToken(token)
        setEndpoint(endpoint)
        dispatch({ type: 'mode', mode: endpoint.mode })
      },
      (err: unknown) => {
        if (!cancelled) dispatch({ type: 'error', message: `cannot find the Wisp server: ${String(err)}` })
      },
    )
    return () => {
      cancelled = true
    }
  }, [resolve, dispatch, setEndpoint, setToken])
}

/** /ws frames fanned out to the panels that subscribe through the bridges. */
interface SocketEmitters {
  output: Listeners<TerminalOutputMessage>
  errors: Listeners<string>
  emotes: Listeners<EmoteMessage>
}

function useSocketEmitters(): SocketEmitters {
  const [emitters] = useState<SocketEmitters>(() => ({
    output: new Listeners(),
    errors: new Listeners(),
    emotes: new Listeners(),
  }))
  return emitters
}

/** One socket per page (per ws URL); token changes reuse it so lastEventId survives. */
function useSocket(wsURL: string | null, token: string, dispatch: Dispatch, emitters: SocketEmitters) {
  const socket = useRef<WispSocket | null>(null)
  const tokenRef = useRef(token)
  tokenRef.current = token

  useEffect(() => {
    if (wsURL === null) return
    const sock = new WispSocket({ wsURL, token: tokenRef.current, clientId: tabClientId() })
    socket.current = sock
    const unsubscribe = [
      sock.onState((s) => dispatch({ type: 'connection', state: s })),
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
      sock.onClose((info) => {
        if (info.authRejected) dispatch({ type: tokenRef.current === '' ? 'token-required' : 'token-rejected' })
      }),
    ]
    sock.start()
    return () => {
      for (const off of unsubscribe) off()
      sock.stop()
      socket.current = null
    }
  }, [wsURL, dispatch, emitters])

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

/** Tells the server once per page load that the UI has both its API and its socket. */
function useUiReady(api: ApiClient | null, state: AppState): void {
  const sent = useRef(false)
  const ready = state.apiReady && state.connection === 'connected'
  useEffect(() => {
    if (!ready || api === null || sent.current) return
    sent.current = true
    api.uiReady().catch((err: unknown) => {
      sent.current = false
      console.warn('wisp: ui ready call failed', err)
    })
  }, [ready, api])
}
