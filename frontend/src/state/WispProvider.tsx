// Makes the page's WispPage (its stores, chat controller and actions;
// wispPage.ts) and feeds it: finds the server, makes the API client and the
// one WispSocket, hands every frame to the frame table (frameTable.ts) and
// runs the start-up loads, again after a reconnect where frames may have
// been missed. The context carries only the WispPage, which never changes:
// the provider's own re-renders (when the connection or readiness changes)
// reach no component, and components select from the stores what they show.

import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react'
import type { ReactNode } from 'react'
import {
  ApiClient,
  WispSocket,
  resolveConnection,
  reresolveOnClose,
  tabClientId,
  type Clock,
  type CloseInfo,
  type ResolvedConnection,
  type SocketFactory,
} from '../api'
import { routeFrame } from './frameTable'
import type { FrameScheduler } from './replyStore'
import { useStore } from './store'
import { useNotifications } from './useNotifications'
import { useTheme } from './useTheme'
import { WispContext } from './wispContext'
import { WispPage, type Endpoint } from './wispPage'

export { useApi, useAppState, useWisp } from './wispContext'

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
  const [page] = useState(() => new WispPage(frames))
  const [endpoint, setEndpoint] = useState<Endpoint | null>(null)
  const [token, setToken] = useState('')
  const [resolveGeneration, setResolveGeneration] = useState(0)
  const reresolve = useCallback(() => setResolveGeneration((n) => n + 1), [])
  useLayoutEffect(() => {
    page.endpoint = endpoint
    page.token = token
    page.reresolve = reresolve
    page.setToken = setToken
    page.terminal.desktopToken = endpoint?.terminalToken ?? ''
  })

  useResolveConnection(page, resolve, resolveGeneration, setEndpoint, setToken)
  const api = useMemo(
    () => (endpoint === null ? null : new ApiClient({ baseURL: endpoint.baseURL, token, ...(fetch === undefined ? {} : { fetch }) })),
    [endpoint, token, fetch],
  )
  useLayoutEffect(() => page.setApi(api), [page, api])
  const mode = endpoint?.mode ?? null
  const onSocketClose = useCallback(
    (info: CloseInfo) => {
      if (reresolveOnClose(mode, info.code)) reresolve()
    },
    [mode, reresolve],
  )
  useSocket(page, endpoint?.wsURL ?? null, token, onSocketClose, { createSocket, clock: socketClock })

  const apiReady = useStore(page.app, (s) => s.apiReady)
  const connected = useStore(page.app, (s) => s.connection === 'connected')
  useStartupLoads(page, api, token, apiReady, connected)
  useUiReady(api, apiReady && connected)

  const notifications = useTheme(page, api, apiReady)
  const onProactive = useCallback((fn: Parameters<typeof page.events.proactive.add>[0]) => page.events.proactive.add(fn), [page])
  const onApproval = useCallback((fn: Parameters<typeof page.events.approvals.add>[0]) => page.events.approvals.add(fn), [page])
  useNotifications({
    enabled: notifications,
    mode,
    agentName: () => page.app.get().status?.agentName || 'Wisp',
    openConversationId: () => page.app.get().chat.conversationId,
    open: page.chat.open,
    onProactive,
    onApproval,
  })

  return <WispContext.Provider value={page}>{children}</WispContext.Provider>
}

/** Finds the server at start, and again whenever generation changes (a desktop server that may have moved). */
function useResolveConnection(
  page: WispPage,
  resolve: () => Promise<ResolvedConnection>,
  generation: number,
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
        page.app.dispatch({ type: 'mode', mode: endpoint.mode })
      },
      (err: unknown) => {
        if (!cancelled) page.app.dispatch({ type: 'error', message: `cannot find the Wisp server: ${String(err)}` })
      },
    )
    return () => {
      cancelled = true
    }
  }, [page, resolve, generation, setEndpoint, setToken])
}

function sameEndpoint(a: Endpoint, b: Endpoint): boolean {
  return a.mode === b.mode && a.baseURL === b.baseURL && a.wsURL === b.wsURL && a.terminalToken === b.terminalToken
}

/**
 * One socket per page (per ws URL); token changes reuse it so lastEventId
 * survives. Every frame goes to the frame table. A replay-truncated frame, or
 * reconnecting after the server dropped the socket for lagging (1013), asks
 * for one resync per connection.
 */
function useSocket(
  page: WispPage,
  wsURL: string | null,
  token: string,
  onClose: (info: CloseInfo) => void,
  fakes: { createSocket: SocketFactory | undefined; clock: Clock | undefined },
): void {
  const { createSocket, clock } = fakes
  const tokenRef = useRef(token)
  tokenRef.current = token
  const onCloseRef = useRef(onClose)
  onCloseRef.current = onClose

  // A token found again (desktop, after the server moved) is used from the next connection attempt.
  useEffect(() => page.socket?.setToken(token), [page, token])

  useEffect(() => {
    if (wsURL === null) return
    const sock = new WispSocket({
      wsURL,
      token: tokenRef.current,
      clientId: tabClientId(),
      ...(createSocket === undefined ? {} : { createSocket }),
      ...(clock === undefined ? {} : { clock }),
    })
    page.socket = sock
    let connections = 0
    let resyncedOn = -1
    let lagged = false
    page.socketResync = () => {
      if (resyncedOn === connections) return
      resyncedOn = connections
      page.resync()
    }
    const unsubscribe = [
      sock.onState((s) => {
        page.app.dispatch({ type: 'connection', state: s })
        if (s !== 'connected') return
        connections++
        if (lagged) {
          lagged = false
          page.socketResync()
        }
      }),
      sock.onAny((msg) => routeFrame(page, msg)),
      sock.onClose((info) => {
        if (info.lagged) lagged = true
        if (info.authRejected) page.app.dispatch({ type: tokenRef.current === '' ? 'token-required' : 'token-rejected' })
        onCloseRef.current(info)
      }),
    ]
    sock.start()
    return () => {
      for (const off of unsubscribe) off()
      sock.stop()
      page.socket = null
    }
  }, [page, wsURL, createSocket, clock])
}

/**
 * The loads of the page: /api/status until it succeeds (per API client, and
 * whenever /ws (re)connects); the conversation list and the open chat once
 * the API is usable; the pending approvals, reminders and a shown MCP list
 * after every (re)connect of /ws (frames sent while it was down are not
 * replayed), and the list and open chat caught up after a reconnect.
 */
function useStartupLoads(page: WispPage, api: ApiClient | null, token: string, apiReady: boolean, connected: boolean): void {
  useEffect(() => {
    if (api === null || apiReady) return
    let cancelled = false
    void page.loadStatus(api, () => cancelled)
    return () => {
      cancelled = true
    }
  }, [page, api, token, apiReady, connected])

  useEffect(() => {
    if (api === null || !apiReady) return
    let cancelled = false
    void page.loadConversations(() => cancelled)
    page.chat.start()
    return () => {
      cancelled = true
    }
  }, [page, api, apiReady])

  useEffect(() => page.chat.followHash(), [page])
  useEffect(() => () => page.chat.dispose(), [page])
  useEffect(() => {
    if (connected) page.chat.announce()
  }, [page, connected])

  useEffect(() => {
    if (api !== null && apiReady && connected) void page.approvals.loadPending()
  }, [page, api, apiReady, connected])
  useEffect(() => {
    if (api !== null && connected) void page.mcp.reload()
  }, [page, api, connected])
  useEffect(() => {
    if (api === null || !apiReady || !connected) return
    let cancelled = false
    void page.loadReminders(() => cancelled)
    return () => {
      cancelled = true
    }
  }, [page, api, apiReady, connected])

  const connects = useRef(0)
  useEffect(() => {
    if (!connected) return
    connects.current += 1
    // The first connection loads everything anyway (above).
    if (connects.current > 1) page.reconnected()
  }, [page, connected])
}

/**
 * Tells the server once per page load that the UI has both its API and its
 * socket and has painted: the report waits for the second animation frame
 * after the first render with data, by which time the browser has produced a
 * frame showing it (a hidden page sends it once it is shown).
 */
function useUiReady(api: ApiClient | null, ready: boolean): void {
  const sent = useRef(false)
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
