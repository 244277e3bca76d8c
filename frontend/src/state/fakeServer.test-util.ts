// A Wisp server for tests that render the whole app: the REST routes the UI
// calls at start-up and while chatting (answered from plain data the test
// changes), reply streams the test feeds frame by frame, and /ws sockets the
// test opens and sends frames on. Every request is recorded.

import type { ChatFrame, Conversation, DisplayMessage, SocketFactory, SocketHandlers, SocketLike, Summary } from '../api'
import goldenFile from '../api/testdata/wire.golden.json'
import { onBranch, type BareMessage } from './messages.test-util'

const golden = goldenFile as unknown as { shapes: Record<string, unknown[]> }
const enc = new TextEncoder()

export const BASE_URL = 'http://wisp.test'

/** A reply stream the test writes to. */
export class SseFeed {
  private controller: ReadableStreamDefaultController<Uint8Array> | null = null
  readonly body = new ReadableStream<Uint8Array>({
    start: (c) => {
      this.controller = c
    },
  })

  constructor(readonly path: string) {}

  send(seq: number, frame: ChatFrame): void {
    this.controller?.enqueue(enc.encode(`id: ${seq}\ndata: ${JSON.stringify(frame)}\n\n`))
  }

  end(): void {
    this.controller?.close()
  }
}

export interface Request {
  method: string
  /** Path and query. */
  path: string
  /** The JSON body, parsed (undefined without one). */
  body?: unknown
}

/** What GET /api/runs/{id}/stream answers next: a stream the test feeds, or 204. */
export type RunAnswer = { kind: 'stream'; feed: SseFeed } | { kind: 'ended' }

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

export class FakeServer {
  readonly requests: Request[] = []
  /** Reply streams opened by sending, editing or regenerating, in order. */
  readonly sends: SseFeed[] = []
  /** X-Wisp-Message-Id of a send (the question it saved; '' sends none, as an older server). */
  sentMessageId = ''
  /** X-Wisp-Message-Id of the next edit or regenerate (the new message; '' sends none). */
  newMessageId = 'm-new'
  /** How an edit or a regenerate answers before its stream (a Response refuses it; default: it streams). */
  refuseNew: (path: string, body: unknown) => Response | null = () => null
  /** GET /api/runs/{id}, by run id (404 for the others). */
  runs = new Map<string, unknown>()
  /** How PUT /api/conversations/{id}/branch answers (default: the conversation's messages as its page). */
  branch: (conversationId: string, body: unknown) => Response | Promise<Response> = (id) => json(200, messagePage(this.messages.get(id) ?? []))
  /** Answers for the next resumes, in order (a resume with none left fails with 502). */
  readonly runAnswers: RunAnswer[] = []
  status = {
    state: 'running',
    agentName: 'Wisp',
    model: 'fake',
    canRespond: true,
    startedAt: 1_763_715_600_000,
    uptime: 1,
  }
  conversations: Conversation[] = []
  messages = new Map<string, BareMessage[]>()
  display = new Map<string, DisplayMessage[]>()
  reminders: unknown[] = golden.shapes.Reminder ?? []
  runId = 'run-1'
  /** GET /api/approvals (the pending ones) and GET /api/grants. */
  approvals: unknown[] = []
  grants: unknown[] = []
  /** How POST /api/approvals/{id} answers (default: 404). */
  decide: (id: string, body: unknown) => Response | Promise<Response> = () => json(404, { error: 'unknown approval' })
  /** GET /api/mcp/servers. */
  mcpServers: unknown[] = []
  /** How the other /api/mcp/servers/{name} routes answer (default: 404). */
  mcp: (method: string, name: string, action: string, body: unknown) => Response | Promise<Response> = () =>
    json(404, { error: 'no such MCP server' })
  /** Each conversation's summaries: a page carries those whose message it has. */
  summaries = new Map<string, Summary[]>()
  /** Routes a test adds (the context meter, usage, summaries' buttons): answered before the 404 when not null. */
  extra: (method: string, path: string, body: unknown) => Response | Promise<Response> | null = () => null
  /** Called with each request before it is answered (to change the data as a real server's would change). */
  onRequest: (req: Request) => void = () => undefined

  /** How many requests matched method and path (path without the query unless it has one). */
  count(method: string, path: string): number {
    return this.requests.filter((r) => r.method === method && (path.includes('?') ? r.path : r.path.split('?')[0]) === path).length
  }

  readonly fetch: typeof fetch = async (input, init) => {
    const url = new URL(String(input))
    const method = init?.method ?? 'GET'
    const path = url.pathname + url.search
    const req: Request = { method, path }
    if (typeof init?.body === 'string') req.body = JSON.parse(init.body)
    this.requests.push(req)
    this.onRequest(req)
    return this.answer(method, url, req.body)
  }

  private answer(method: string, url: URL, body: unknown): Response | Promise<Response> {
    const p = url.pathname
    const route = `${method} ${p}`
    const conv = /^\/api\/conversations\/([^/]+)\/(messages|display-messages)$/.exec(p)
    if (route === 'GET /api/status') return json(200, this.status)
    if (route === 'GET /api/conversations') return json(200, { conversations: this.conversations })
    if (route === 'GET /api/reminders') return json(200, { reminders: this.reminders })
    if (route === 'GET /api/config') return json(200, golden.shapes.ConfigView?.[0])
    if (route === 'GET /api/agent/autonomy') return json(200, golden.shapes.AutonomyState?.[0])
    if (route === 'POST /api/ui/ready') return json(200, { ok: true })
    if (route === 'GET /api/approvals') return json(200, { approvals: this.approvals })
    if (route === 'GET /api/grants') return json(200, { grants: this.grants })
    if (route === 'GET /api/mcp/servers') return json(200, { servers: this.mcpServers })
    const mcp = /^\/api\/mcp\/servers\/([^/]+)(?:\/([a-z]+))?$/.exec(p)
    if (mcp !== null) return this.mcp(method, decodeURIComponent(mcp[1] ?? ''), mcp[2] ?? '', body)
    const decided = /^\/api\/approvals\/([^/]+)$/.exec(p)
    if (method === 'POST' && decided !== null) return this.decide(decodeURIComponent(decided[1] ?? ''), body)
    const grant = /^\/api\/grants\/([^/]+)$/.exec(p)
    if (method === 'DELETE' && grant !== null) {
      const id = decodeURIComponent(grant[1] ?? '')
      const before = this.grants.length
      this.grants = this.grants.filter((g) => (g as { id?: unknown }).id !== id)
      return this.grants.length < before ? new Response(null, { status: 204 }) : json(404, { error: 'no such grant' })
    }
    if (method === 'GET' && conv !== null) {
      const id = decodeURIComponent(conv[1] ?? '')
      if (conv[2] === 'messages') return this.page(id, url.searchParams)
      return json(200, { displayMessages: this.display.get(id) ?? [] })
    }
    if (method === 'POST' && /^\/api\/conversations\/[^/]+\/messages\/stream$/.test(p)) {
      const feed = new SseFeed(p + url.search)
      this.sends.push(feed)
      const headers: Record<string, string> = { 'Content-Type': 'text/event-stream', 'X-Wisp-Run-Id': this.runId }
      if (this.sentMessageId !== '') headers['X-Wisp-Message-Id'] = this.sentMessageId
      return new Response(feed.body, { headers })
    }
    if (method === 'POST' && /^\/api\/conversations\/[^/]+\/messages\/[^/]+\/(edit|regenerate)$/.test(p)) {
      const refused = this.refuseNew(p, body)
      if (refused !== null) return refused
      const feed = new SseFeed(p + url.search)
      this.sends.push(feed)
      const headers: Record<string, string> = { 'Content-Type': 'text/event-stream', 'X-Wisp-Run-Id': this.runId }
      if (this.newMessageId !== '') headers['X-Wisp-Message-Id'] = this.newMessageId
      return new Response(feed.body, { headers })
    }
    const run = /^\/api\/runs\/([^/]+)$/.exec(p)
    if (method === 'GET' && run !== null) {
      const found = this.runs.get(decodeURIComponent(run[1] ?? ''))
      return found === undefined ? json(404, { error: 'no such run' }) : json(200, { run: found })
    }
    const branch = /^\/api\/conversations\/([^/]+)\/branch$/.exec(p)
    if (method === 'PUT' && branch !== null) return this.branch(decodeURIComponent(branch[1] ?? ''), body)
    if (method === 'GET' && /^\/api\/runs\/[^/]+\/stream$/.test(p)) {
      const next = this.runAnswers.shift()
      if (next === undefined) return json(502, { error: 'no answer scripted' })
      if (next.kind === 'ended') return new Response(null, { status: 204 })
      return new Response(next.feed.body, { headers: { 'Content-Type': 'text/event-stream' } })
    }
    return this.extra(method, p + url.search, body) ?? json(404, { error: `not found: ${route}` })
  }

  /** GET …/messages: a page of the conversation's messages by before/after/around/limit (docs/chat.md). */
  private page(id: string, q: URLSearchParams): Response {
    const all = this.messages.get(id) ?? []
    const limit = Number(q.get('limit') ?? 100)
    if (!(limit >= 1 && limit <= 500)) return json(400, { error: 'bad limit' })
    const cursor = q.get('before') ?? q.get('after') ?? q.get('around')
    const at = cursor === null ? all.length : all.findIndex((m) => m.id === cursor)
    if (at < 0) return json(404, { error: 'no such message' })
    let start = Math.max(0, all.length - limit)
    if (q.has('before')) start = Math.max(0, at - limit)
    else if (q.has('after')) start = at + 1
    else if (q.has('around')) start = Math.max(0, Math.min(at - Math.floor(limit / 2), all.length - limit))
    const end = q.has('before') ? at : Math.min(all.length, start + limit)
    const runs = new Set(all.slice(start, end).map((m) => m.runId))
    const display = (this.display.get(id) ?? []).filter((d) => runs.has(d.runId))
    const ids = new Set(all.slice(start, end).map((m) => m.id))
    const summaries = (this.summaries.get(id) ?? []).filter((x) => ids.has(x.throughId))
    return json(200, { ...(messagePage(all, start, end, display) as object), summaries })
  }

}

/** A /ws connection the test drives. */
export class FakeSocket implements SocketLike {
  closed = false
  readonly sent: unknown[] = []

  constructor(
    readonly url: string,
    private readonly handlers: SocketHandlers,
  ) {}

  send(data: string): void {
    this.sent.push(JSON.parse(data))
  }
  close(): void {
    this.closed = true
  }
  // The server's side.
  open(): void {
    this.handlers.onOpen()
  }
  receive(frame: unknown): void {
    this.handlers.onMessage(JSON.stringify(frame))
  }
  drop(code: number, reason = ''): void {
    this.closed = true
    this.handlers.onClose(code, reason)
  }
}

export function fakeSockets(): { sockets: FakeSocket[]; createSocket: SocketFactory } {
  const sockets: FakeSocket[] = []
  return {
    sockets,
    createSocket: (url, handlers) => {
      const s = new FakeSocket(url, handlers)
      sockets.push(s)
      return s
    },
  }
}

/** Messages from start to end of a whole list (one branch) as a page, with the tree fields a test left out (a test gives siblingIds for versions). */
export function messagePage(
  list: readonly BareMessage[],
  start = 0,
  end = list.length,
  displayMessages: readonly DisplayMessage[] = [],
): unknown {
  const messages = onBranch(list).slice(start, end)
  return { messages, hasOlder: start > 0, hasNewer: end < list.length, branchLength: list.length, displayMessages, summaries: [] }
}
