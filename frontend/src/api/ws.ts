// WispSocket: the single client of the backend's /ws hub.
//
// It authenticates with a first {"type":"auth"} frame when a token is known,
// reports a connection state, resumes with ?lastEventId= after reconnects so
// buffered envelopes are neither missed nor repeated, reconnects on the
// schedule of backoff.ts (also after the server dropped it for lagging,
// which its close info says), and queues outgoing messages while not active
// (sendQueue.ts). Socket creation and timers are injected for tests.

import { backoffDelay, isProbing } from './backoff'
import { realClock, type Cancel, type Clock } from './clock'
import { decodeServerMessage, isEnvelope } from './decode'
import { SendQueue } from './sendQueue'
import type {
  ClientMessage,
  KnownServerMessages,
  KnownServerMessageType,
  OtherServerMessage,
  ServerMessage,
  TerminalInputMessage,
} from './types'

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'offline'

/** Close code the server uses for a missing or wrong token. */
export const CLOSE_POLICY_VIOLATION = 1008

/**
 * Close code ("try again later") the server uses for a client that fell too far
 * behind: frames queued for it were dropped, so after reconnecting it reloads
 * what it shows.
 */
export const CLOSE_TRY_AGAIN_LATER = 1013

export interface SocketHandlers {
  onOpen(): void
  onMessage(data: string): void
  onClose(code: number, reason: string): void
}

/** The part of a WebSocket that WispSocket uses. */
export interface SocketLike {
  send(data: string): void
  close(code?: number, reason?: string): void
}

export type SocketFactory = (url: string, handlers: SocketHandlers) => SocketLike

/** Wraps the browser's WebSocket constructor (or any compatible one). */
export function webSocketFactory(Ctor: typeof WebSocket = WebSocket): SocketFactory {
  return (url, handlers) => {
    const ws = new Ctor(url)
    ws.onopen = () => handlers.onOpen()
    ws.onmessage = (ev: MessageEvent) => {
      if (typeof ev.data === 'string') handlers.onMessage(ev.data)
    }
    ws.onclose = (ev: CloseEvent) => handlers.onClose(ev.code, ev.reason)
    // An error is always followed by close; reconnecting happens there.
    ws.onerror = () => undefined
    return ws
  }
}

export interface WispSocketOptions {
  wsURL: string
  token?: string
  clientId: string
  createSocket?: SocketFactory
  clock?: Clock
  queue?: SendQueue
}

export type Unsubscribe = () => void
type Listener<T> = (value: T) => void

/** A set of listeners; one listener's failure does not stop the others. */
export class Listeners<T> {
  private readonly set = new Set<Listener<T>>()
  add(fn: Listener<T>): Unsubscribe {
    this.set.add(fn)
    return () => {
      this.set.delete(fn)
    }
  }
  emit(value: T): void {
    for (const fn of [...this.set]) {
      try {
        fn(value)
      } catch (err) {
        console.error('wisp ws: listener failed', err)
      }
    }
  }
}

export interface CloseInfo {
  code: number
  reason: string
  /** True when the server refused the token (1008); no automatic reconnect follows. */
  authRejected: boolean
  /** True when the server dropped this client for lagging (1013); it reconnects as usual. */
  lagged: boolean
}

export class WispSocket {
  private readonly wsURL: string
  private readonly clientId: string
  private readonly createSocket: SocketFactory
  private readonly clock: Clock
  private readonly queue: SendQueue
  private token: string

  private socket: SocketLike | null = null
  private active = false
  private started = false
  private attempt = 0
  private cancelRetry: Cancel | null = null
  private lastEventIdSeen: string | null = null
  private hasConnected = false
  private currentState: ConnectionState = 'connecting'

  private readonly stateListeners = new Listeners<ConnectionState>()
  private readonly closeListeners = new Listeners<CloseInfo>()
  private readonly anyListeners = new Listeners<ServerMessage>()
  private readonly typeListeners = new Map<string, Listeners<ServerMessage>>()

  constructor(opts: WispSocketOptions) {
    this.wsURL = opts.wsURL
    this.clientId = opts.clientId
    this.token = opts.token ?? ''
    this.createSocket = opts.createSocket ?? webSocketFactory()
    this.clock = opts.clock ?? realClock
    this.queue = opts.queue ?? new SendQueue()
  }

  get state(): ConnectionState {
    return this.currentState
  }

  get lastEventId(): string | null {
    return this.lastEventIdSeen
  }

  start(): void {
    if (this.started) return
    this.started = true
    this.setState('connecting')
    this.open()
  }

  stop(): void {
    this.started = false
    this.clearRetry()
    this.dropSocket()
  }

  /** Changes the token used for the next auth frame (does not reconnect by itself). */
  setToken(token: string): void {
    this.token = token
  }

  /** Drops the current connection attempt and connects again now, with a fresh backoff. */
  reconnectNow(): void {
    if (!this.started) {
      this.start()
      return
    }
    this.clearRetry()
    this.dropSocket()
    this.attempt = 0
    this.setState(this.hasConnected ? 'reconnecting' : 'connecting')
    this.open()
  }

  /** Sends now when active, otherwise queues (see SendQueue for the rules). */
  send(msg: ClientMessage): void {
    if (this.active && this.socket !== null) {
      this.socket.send(JSON.stringify(msg))
      return
    }
    this.queue.push(msg)
  }

  /** Keystrokes for a run this tab started; queued like any message while not connected. */
  sendTerminalInput(runId: string, data: string, terminalToken?: string): void {
    const msg: TerminalInputMessage = { type: 'terminal-input', runId, data }
    if (terminalToken) msg.terminalToken = terminalToken
    this.send(msg)
  }

  /** The new size of the view of a run this tab started. */
  sendTerminalResize(runId: string, cols: number, rows: number): void {
    this.send({ type: 'terminal-resize', runId, cols, rows })
  }

  on<K extends KnownServerMessageType>(type: K, fn: Listener<KnownServerMessages[K]>): Unsubscribe
  on(type: string, fn: Listener<OtherServerMessage>): Unsubscribe
  on(type: string, fn: Listener<never>): Unsubscribe {
    let set = this.typeListeners.get(type)
    if (set === undefined) {
      set = new Listeners<ServerMessage>()
      this.typeListeners.set(type, set)
    }
    return set.add(fn as Listener<ServerMessage>)
  }

  onAny(fn: Listener<ServerMessage>): Unsubscribe {
    return this.anyListeners.add(fn)
  }

  /** Subscribes to state changes; fn is called at once with the current state. */
  onState(fn: Listener<ConnectionState>): Unsubscribe {
    fn(this.currentState)
    return this.stateListeners.add(fn)
  }

  onClose(fn: Listener<CloseInfo>): Unsubscribe {
    return this.closeListeners.add(fn)
  }

  /** The URL of the next connection attempt. */
  connectURL(): string {
    const url = new URL(this.wsURL)
    url.searchParams.set('clientId', this.clientId)
    if (this.lastEventIdSeen !== null) url.searchParams.set('lastEventId', this.lastEventIdSeen)
    else url.searchParams.delete('lastEventId')
    return url.toString()
  }

  private open(): void {
    const token = this.token
    let socket: SocketLike | null = null
    const isCurrent = () => socket !== null && this.socket === socket
    const handlers: SocketHandlers = {
      onOpen: () => {
        if (!isCurrent() || socket === null) return
        if (token !== '') socket.send(JSON.stringify({ type: 'auth', token }))
      },
      onMessage: (data) => {
        if (!isCurrent()) return
        this.handleFrame(data, token)
      },
      onClose: (code, reason) => {
        if (!isCurrent()) return
        this.handleClose(code, reason)
      },
    }
    try {
      socket = this.createSocket(this.connectURL(), handlers)
    } catch (err) {
      console.warn('wisp ws: cannot create socket', err)
      this.scheduleRetry()
      return
    }
    this.socket = socket
    this.active = false
  }

  private handleFrame(data: string, token: string): void {
    const msg = decodeServerMessage(data)
    if (msg === null) {
      console.warn('wisp ws: ignored malformed frame', data.slice(0, 200))
      return
    }
    // With a token the connection is active after auth-ok; without one the
    // first frame (the server's status) proves the server accepted us.
    if (!this.active && (msg.type === 'auth-ok' || token === '')) this.activate()
    if (isEnvelope(msg)) this.lastEventIdSeen = msg.eventId
    this.typeListeners.get(msg.type)?.emit(msg)
    this.anyListeners.emit(msg)
  }

  private activate(): void {
    this.active = true
    this.hasConnected = true
    this.attempt = 0
    this.setState('connected')
    this.flush()
  }

  private flush(): void {
    const pending = this.queue.drain()
    for (let i = 0; i < pending.length; i++) {
      const msg = pending[i]
      if (msg === undefined || this.socket === null) break
      try {
        this.socket.send(JSON.stringify(msg))
      } catch (err) {
        console.warn('wisp ws: flush interrupted', err)
        this.queue.requeueFront(pending.slice(i))
        return
      }
    }
  }

  private handleClose(code: number, reason: string): void {
    this.socket = null
    this.active = false
    const authRejected = code === CLOSE_POLICY_VIOLATION
    const lagged = code === CLOSE_TRY_AGAIN_LATER
    if (lagged) console.warn('wisp ws: the server dropped this client for lagging:', reason)
    this.closeListeners.emit({ code, reason, authRejected, lagged })
    if (!this.started) return
    if (authRejected) {
      // Retrying with the same token cannot succeed; wait for setToken + reconnectNow.
      this.setState('offline')
      return
    }
    this.scheduleRetry()
  }

  private scheduleRetry(): void {
    const delay = backoffDelay(this.attempt)
    this.setState(isProbing(this.attempt) ? 'offline' : 'reconnecting')
    this.attempt++
    this.clearRetry()
    this.cancelRetry = this.clock.after(delay, () => {
      this.cancelRetry = null
      if (this.started) this.open()
    })
  }

  private clearRetry(): void {
    if (this.cancelRetry !== null) {
      this.cancelRetry()
      this.cancelRetry = null
    }
  }

  private dropSocket(): void {
    const socket = this.socket
    this.socket = null
    this.active = false
    if (socket !== null) {
      try {
        socket.close(1000, 'client closing')
      } catch {
        // already closed
      }
    }
  }

  private setState(next: ConnectionState): void {
    if (next === this.currentState) return
    this.currentState = next
    this.stateListeners.emit(next)
  }
}
