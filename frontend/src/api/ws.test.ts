import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Clock } from './clock'
import { SendQueue } from './sendQueue'
import { WispSocket, type ConnectionState, type SocketHandlers, type SocketLike } from './ws'

/** A WebSocket stand-in the test drives by hand. */
class FakeSocket implements SocketLike {
  sent: unknown[] = []
  closed = false
  readonly url: string
  private readonly handlers: SocketHandlers

  constructor(url: string, handlers: SocketHandlers) {
    this.url = url
    this.handlers = handlers
  }
  send(data: string): void {
    if (this.closed) throw new Error('send on closed socket')
    this.sent.push(JSON.parse(data))
  }
  close(): void {
    this.closed = true
  }
  // server side
  open(): void {
    this.handlers.onOpen()
  }
  receive(frame: unknown): void {
    this.handlers.onMessage(typeof frame === 'string' ? frame : JSON.stringify(frame))
  }
  drop(code = 1006): void {
    this.closed = true
    this.handlers.onClose(code, '')
  }
  query(name: string): string | null {
    return new URL(this.url).searchParams.get(name)
  }
}

/** Timers that only fire when the test says so. */
class ManualClock implements Clock {
  private timers: { ms: number; fn: () => void; live: boolean }[] = []
  after(ms: number, fn: () => void) {
    const t = { ms, fn, live: true }
    this.timers.push(t)
    return () => {
      t.live = false
    }
  }
  pending(): number[] {
    return this.timers.filter((t) => t.live).map((t) => t.ms)
  }
  /** Fires the single pending timer and returns its delay. */
  fire(): number {
    const live = this.timers.filter((t) => t.live)
    expect(live).toHaveLength(1)
    const t = live[0]!
    t.live = false
    t.fn()
    return t.ms
  }
}

function setup(token = 'tok') {
  const sockets: FakeSocket[] = []
  const clock = new ManualClock()
  const ws = new WispSocket({
    wsURL: 'ws://127.0.0.1:4000/ws',
    token,
    clientId: 'tab-1',
    clock,
    createSocket: (url, handlers) => {
      const s = new FakeSocket(url, handlers)
      sockets.push(s)
      return s
    },
  })
  const states: ConnectionState[] = []
  ws.onState((s) => states.push(s))
  const last = () => sockets[sockets.length - 1]!
  return { ws, sockets, clock, states, last }
}

const envelope = (n: number) => ({
  type: 'agent_event',
  version: 1,
  eventId: `evt-${n}`,
  ts: 1_700_000_000_000 + n,
  stream: 'system',
  payload: { n },
})

const status = {
  type: 'status',
  state: 'running',
  agentName: 'Wisp',
  model: 'none',
  canRespond: false,
  canRespondReason: 'no model',
  startedAt: 1,
  uptime: 2,
}

describe('WispSocket', () => {
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('auths, activates on auth-ok, and resumes from lastEventId after a reconnect', () => {
    const { ws, sockets, clock, states, last } = setup('tok')
    const events: string[] = []
    ws.on('agent_event', (e) => events.push(e.eventId))
    ws.start()

    const first = last()
    expect(first.query('clientId')).toBe('tab-1')
    expect(first.query('lastEventId')).toBeNull()
    first.open()
    expect(first.sent).toEqual([{ type: 'auth', token: 'tok' }])
    expect(ws.state).toBe('connecting')

    ws.send({ type: 'active-conversation', conversationId: 'c1' }) // not active yet: queued
    expect(first.sent).toHaveLength(1)

    first.receive({ type: 'auth-ok' })
    expect(ws.state).toBe('connected')
    expect(first.sent[1]).toEqual({ type: 'active-conversation', conversationId: 'c1' })

    first.receive(status)
    first.receive(envelope(1))
    first.receive(envelope(2))
    expect(events).toEqual(['evt-1', 'evt-2'])

    first.drop()
    expect(ws.state).toBe('reconnecting')
    ws.send({ type: 'ping' }) // queued while down
    expect(clock.fire()).toBe(500)

    expect(sockets).toHaveLength(2)
    const second = last()
    expect(second.query('clientId')).toBe('tab-1')
    expect(second.query('lastEventId')).toBe('evt-2')
    second.open()
    expect(second.sent).toEqual([{ type: 'auth', token: 'tok' }])
    second.receive({ type: 'auth-ok' })
    expect(second.sent).toEqual([{ type: 'auth', token: 'tok' }, { type: 'ping' }])
    second.receive(envelope(3))
    expect(events).toEqual(['evt-1', 'evt-2', 'evt-3'])
    expect(states).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])

    ws.send({ type: 'ping' }) // active: sent at once
    expect(second.sent).toHaveLength(3)
  })

  it('without a token sends no auth and is active on the first frame', () => {
    const { ws, last } = setup('')
    ws.start()
    last().open()
    expect(last().sent).toEqual([])
    expect(ws.state).toBe('connecting')
    last().receive(status)
    expect(ws.state).toBe('connected')
  })

  it('backs off 500, 750, 1125 … then goes offline and probes every 30 s; success resets', () => {
    const { ws, clock, last, states } = setup()
    ws.start()
    const delays: number[] = []
    for (let i = 0; i < 17; i++) {
      last().drop()
      delays.push(clock.fire())
    }
    expect(delays.slice(0, 3)).toEqual([500, 750, 1125])
    expect(delays.slice(8, 15)).toEqual(Array(7).fill(10_000))
    expect(delays.slice(15)).toEqual([30_000, 30_000])
    expect(ws.state).toBe('offline')
    expect(states).toEqual(['connecting', 'reconnecting', 'offline'])

    last().open()
    last().receive({ type: 'auth-ok' })
    expect(ws.state).toBe('connected')
    last().drop()
    expect(clock.fire()).toBe(500)
    expect(ws.state).toBe('reconnecting')
  })

  it('stops retrying when the server refuses the token, until reconnectNow', () => {
    const { ws, clock, last, sockets } = setup('wrong')
    const closes: boolean[] = []
    ws.onClose((c) => closes.push(c.authRejected))
    ws.start()
    last().open()
    last().drop(1008)
    expect(closes).toEqual([true])
    expect(ws.state).toBe('offline')
    expect(clock.pending()).toEqual([])

    ws.setToken('right')
    ws.reconnectNow()
    expect(sockets).toHaveLength(2)
    last().open()
    expect(last().sent).toEqual([{ type: 'auth', token: 'right' }])
  })

  it('knows when the server dropped it for lagging (1013), and reconnects after lastEventId', () => {
    const { ws, clock, last, sockets } = setup('')
    const closes: { lagged: boolean; authRejected: boolean; code: number }[] = []
    ws.onClose(({ lagged, authRejected, code }) => closes.push({ lagged, authRejected, code }))
    ws.start()
    last().open()
    last().receive(envelope(7))
    last().drop(1013)
    expect(closes).toEqual([{ lagged: true, authRejected: false, code: 1013 }])
    expect(ws.state).toBe('reconnecting')
    clock.fire()
    expect(sockets).toHaveLength(2)
    expect(last().query('lastEventId')).toBe('evt-7')
    last().drop(1006)
    expect(closes[1]).toEqual({ lagged: false, authRejected: false, code: 1006 })
  })

  it('delivers replay-truncated as a typed frame, and drops a malformed one', () => {
    const { ws, last } = setup('')
    const got: unknown[] = []
    ws.on('replay-truncated', (m) => got.push(m))
    ws.start()
    last().open()
    last().receive({ type: 'replay-truncated', lastEventId: 'evt-12', oldestEventId: 'evt-2183' })
    last().receive({ type: 'replay-truncated', lastEventId: 12 })
    expect(got).toEqual([{ type: 'replay-truncated', lastEventId: 'evt-12', oldestEventId: 'evt-2183' }])
  })

  it('passes unknown types to subscribers and ignores malformed frames', () => {
    const { ws, last } = setup('')
    const seen: unknown[] = []
    const any: string[] = []
    ws.on('future-frame', (m) => seen.push(m.text))
    ws.onAny((m) => any.push(m.type))
    ws.start()
    last().open()
    last().receive('not json')
    last().receive({ no: 'type' })
    last().receive({ type: 'agent_event', eventId: 'evt-1' }) // no ts/payload
    last().receive({ type: 'future-frame', text: 'hi' })
    expect(seen).toEqual(['hi'])
    expect(any).toEqual(['future-frame'])
    expect(ws.lastEventId).toBeNull()
  })

  it('ignores events from a socket it already replaced', () => {
    const { ws, last } = setup('')
    const got: string[] = []
    ws.on('agent_event', (e) => got.push(e.eventId))
    ws.start()
    const old = last()
    ws.reconnectNow()
    old.receive(envelope(9))
    old.drop()
    expect(got).toEqual([])
    expect(ws.state).toBe('connecting')
  })

  it('unsubscribes and stops cleanly', () => {
    const { ws, clock, last } = setup('')
    const got: string[] = []
    const off = ws.on('agent_event', (e) => got.push(e.eventId))
    ws.start()
    last().receive(envelope(1))
    off()
    last().receive(envelope(2))
    expect(got).toEqual(['evt-1'])
    ws.stop()
    expect(last().closed).toBe(true)
    expect(clock.pending()).toEqual([])
  })

  it('shares one queue rule set: only the latest active-conversation survives a disconnect', () => {
    const queue = new SendQueue()
    const sockets: FakeSocket[] = []
    const ws = new WispSocket({
      wsURL: 'ws://h/ws',
      clientId: 'x',
      queue,
      clock: new ManualClock(),
      createSocket: (u, h) => {
        const s = new FakeSocket(u, h)
        sockets.push(s)
        return s
      },
    })
    ws.start()
    ws.send({ type: 'active-conversation', conversationId: 'a' })
    ws.send({ type: 'active-conversation', conversationId: 'b' })
    sockets[0]!.receive(status)
    expect(sockets[0]!.sent).toEqual([{ type: 'active-conversation', conversationId: 'b' }])
  })
  it('decodes terminal-output frames into typed events and drops malformed ones', () => {
    const { ws, last } = setup('')
    const got: unknown[] = []
    ws.on('terminal-output', (m) => got.push(m))
    ws.start()
    last().open()
    last().receive({ type: 'terminal-output', runId: 'run-1', seq: 1, event: 'start', command: 'ls', maxDurationMs: 5000 })
    last().receive({ type: 'terminal-output', runId: 'run-1', seq: 2, event: 'stdout', data: 'a\r\n' })
    last().receive({ type: 'terminal-output', runId: 'run-1', seq: 3, event: 'stdout' }) // no data
    last().receive({ type: 'terminal-output', runId: '../x', seq: 3, event: 'stdout', data: 'x' })
    last().receive({ type: 'terminal-output', runId: 'run-1', seq: 3, event: 'exit', code: 0 })
    expect(got).toEqual([
      { type: 'terminal-output', runId: 'run-1', seq: 1, event: 'start', command: 'ls', maxDurationMs: 5000 },
      { type: 'terminal-output', runId: 'run-1', seq: 2, event: 'stdout', data: 'a\r\n' },
      { type: 'terminal-output', runId: 'run-1', seq: 3, event: 'exit', code: 0 },
    ])
  })

  it('sends terminal input and resizes, keeping only the latest queued resize per run', () => {
    const { ws, last } = setup('')
    ws.start()
    ws.sendTerminalInput('run-1', 'h')
    ws.sendTerminalResize('run-1', 80, 24)
    ws.sendTerminalResize('run-2', 90, 30)
    ws.sendTerminalResize('run-1', 100, 40)
    ws.sendTerminalInput('run-1', 'i\r', 'tt')
    last().open()
    last().receive(status)
    expect(last().sent).toEqual([
      { type: 'terminal-input', runId: 'run-1', data: 'h' },
      { type: 'terminal-resize', runId: 'run-2', cols: 90, rows: 30 },
      { type: 'terminal-resize', runId: 'run-1', cols: 100, rows: 40 },
      { type: 'terminal-input', runId: 'run-1', data: 'i\r', terminalToken: 'tt' },
    ])
    ws.sendTerminalInput('run-1', 'x')
    expect(last().sent[4]).toEqual({ type: 'terminal-input', runId: 'run-1', data: 'x' })
  })
})
