// Typed client for the backend's HTTP API (README "API today" and
// docs/chat.md). Every failure, including a network error (status 0) or an
// unexpected body, is thrown as ApiError; an aborted stream rethrows the
// abort as it is.

import { decodeImportResult, filenameFromDisposition } from './archiveDecode'
import type { ExportFile, ExportFormat, ImportFormat, ImportResult } from './archiveTypes'
import { decodeApprovalBody, decodeApprovalList, decodeDecisionConflict, decodeGrantList } from './approvalDecode'
import type { Approval, ApprovalDecision, DecideResult, Grant } from './approvalTypes'
import {
  decodeConversationBody,
  decodeConversationList,
  decodeDisplayMessageList,
  decodeMessagePage,
  decodeMessagesPage,
  decodeProvider,
  decodeRunBody,
  decodeSendResult,
  decodeTruncate,
} from './chatDecode'
import { CHAT_DIALECT, chatFrames, MESSAGE_ID_HEADER, noFrames, RUN_ID_HEADER, type ChatStream } from './chatStream'
import type {
  ChatRequest,
  Conversation,
  DisplayMessage,
  MessagePage,
  PageQuery,
  ProviderInfo,
  ProviderUpdate,
  Run,
  SendResult,
  SeqFrame,
  TruncateResult,
} from './chatTypes'
import { decodeConfigSnapshot, decodeShellAccess } from './configDecode'
import type { ConfigSnapshot, MergePatch, RestartResult, ShellAccessResult } from './configTypes'
import { decodeStatus, isObject } from './decode'
import { decodeEmoteCatalog } from './emoteDecode'
import type { EmoteCatalog } from './emoteTypes'
import { decodeMcpServerBody, decodeMcpServerList } from './mcpDecode'
import type { McpServer, McpServerEdit, McpServerSaved } from './mcpTypes'
import {
  decodeStartTerminalRun,
  decodeTerminalRunDetail,
  decodeTerminalRunList,
} from './terminalDecode'
import { decodeRestartResult } from './restartDecode'
import { MemoryClient } from './restMemory'
import { TasksClient } from './restTasks'
import { AttachmentsClient, UPLOAD_HEADER, type AttachmentsTransport, type UploadOptions } from './restAttachments'
import { AvatarClient } from './restAvatar'
import { VoiceClient } from './restVoice'
import { EditsClient } from './restEdits'
import type { ObjectUrl } from './objectUrls'
import type { Attachment } from './wire.gen'
import { ContextApi } from './restContext'
import { decodeSearchResults } from './searchDecode'
import type { SearchOptions, SearchResults } from './searchTypes'
import { decodeAutonomy, decodeReminder, decodeReminderList } from './proactiveDecode'
import type { AutonomyState, NewReminder, Reminder } from './proactiveTypes'
import type {
  StartTerminalRunRequest,
  StartTerminalRunResult,
  TerminalAuth,
  TerminalRunDetail,
  TerminalRunList,
} from './terminalTypes'
import type {
  AgentEventKind,
  AgentStatus,
  AgentStream,
  JsonObject,
  OkResult,
  PublishResult,
} from './types'

export class ApiError extends Error {
  readonly status: number

  constructor(status: number, message: string) {
    super(message)
    this.name = 'ApiError'
    this.status = status
  }
}

export function isUnauthorized(err: unknown): boolean {
  return err instanceof ApiError && err.status === 401
}

export interface ApiClientOptions {
  baseURL: string
  token?: string
  fetch?: typeof fetch
}

export interface StreamOptions {
  signal?: AbortSignal
  /** Fail when the stream is silent this long (the server sends a heartbeat every 5 s). */
  idleTimeoutMs?: number
}

export const DEFAULT_STREAM_IDLE_MS = 30_000

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

const EXPORT_ACCEPT: Record<ExportFormat, string> = { json: 'application/json', md: 'text/markdown', zip: 'application/zip' }

const seg = encodeURIComponent

export class ApiClient {
  private readonly baseURL: string
  private readonly token: string
  private readonly fetchImpl: typeof fetch
  /** The context meter, usage and summaries (restContext.ts). */
  readonly context = new ContextApi({
    call: async (method, path, decode, what) => decoded(await this.request(method, path, method === 'POST' ? {} : undefined), decode, what),
    streamRun: (runId, after, opts) => this.streamRun(runId, after, opts),
  })

  /** The memory: GET/PUT /api/memory, its history and undo (restMemory.ts). */
  readonly memory = new MemoryClient({
    exchange: (method, path, body) => this.exchange(method, path, body),
    answer,
    malformed: (what) => new ApiError(200, `malformed ${what} response`),
  })

  /** Tasks on a schedule: /api/tasks (restTasks.ts). */
  readonly tasks = new TasksClient({
    exchange: (method, path, body) => this.exchange(method, path, body),
    answer,
    malformed: (what) => new ApiError(200, `malformed ${what} response`),
  })

  /** Uploads and the bytes and thumbnails of attachments (restAttachments.ts). */
  readonly attachments: AttachmentsClient = new AttachmentsClient(this.rawTransport())

  /** Speech out and in: POST /api/speech and /api/transcriptions (restVoice.ts). */
  readonly voice: VoiceClient = new VoiceClient(this.rawTransport())

  /** The agent's file edits and their undo: /api/edits (restEdits.ts). */
  readonly edits: EditsClient = new EditsClient(this.rawTransport())

  /** The user's character: GET, POST (a .vrm) and DELETE /api/avatar (restAvatar.ts). */
  readonly avatar: AvatarClient = new AvatarClient(this.rawTransport())

  /** fetch with the client's headers and errors, for the clients of non-JSON bodies. */
  private rawTransport(): AttachmentsTransport {
    return {
      fetch: async (path, init) => {
        const headers = { ...init.headers, ...this.headers(init.headers.Accept ?? 'application/json') }
        try {
          return await this.fetchImpl(`${this.baseURL}${path}`, { ...init, headers })
        } catch (err) {
          if (init.signal?.aborted) throw err
          throw new ApiError(0, `cannot reach the Wisp server: ${errorText(err)}`)
        }
      },
      failed: async (res) => errorFromBody(res, parseJSON(await res.text().catch(() => ''))),
      malformed: (what) => new ApiError(200, `malformed ${what} response`),
    }
  }

  constructor(opts: ApiClientOptions) {
    this.baseURL = opts.baseURL.replace(/\/+$/, '')
    this.token = opts.token ?? ''
    this.fetchImpl = opts.fetch ?? ((input, init) => globalThis.fetch(input, init))
  }

  async getHealth(): Promise<OkResult> {
    return decodeOk(await this.request('GET', '/api/health'))
  }

  async getStatus(): Promise<AgentStatus> {
    const body = await this.request('GET', '/api/status')
    const status = decodeStatus(body)
    if (status === null) throw new ApiError(200, 'malformed /api/status response')
    return status
  }

  async publishAgentEvent(
    stream: AgentStream,
    payload: JsonObject,
    kind?: AgentEventKind,
  ): Promise<PublishResult> {
    const body = await this.request('POST', '/api/agent/event', {
      stream,
      payload,
      ...(kind === undefined ? {} : { kind }),
    })
    if (!isObject(body) || typeof body.eventId !== 'string') {
      throw new ApiError(200, 'malformed /api/agent/event response')
    }
    return { ok: true, eventId: body.eventId }
  }

  /**
   * Reports that the page reached the API and the socket; painted says the
   * browser has also produced a frame of the app with its data (the desktop
   * smoke test waits for that before its screenshot).
   */
  async uiReady(report: { painted: boolean }): Promise<OkResult> {
    return decodeOk(await this.request('POST', '/api/ui/ready', { api: true, ws: true, painted: report.painted }))
  }

  /** Tells the server something only the page knows (speech played or failed), for Wisp's log. */
  async uiReport(event: string, detail: string): Promise<OkResult> {
    return decodeOk(await this.request('POST', '/api/ui/report', { event, detail }))
  }

  // Conversations

  async listConversations(): Promise<Conversation[]> {
    return decoded(await this.request('GET', '/api/conversations'), decodeConversationList, 'conversations')
  }

  async createConversation(body: { title?: string; metadata?: JsonObject } = {}): Promise<Conversation> {
    return decoded(await this.request('POST', '/api/conversations', body), decodeConversationBody, 'conversation')
  }

  async getConversation(id: string): Promise<Conversation> {
    return decoded(await this.request('GET', `/api/conversations/${seg(id)}`), decodeConversationBody, 'conversation')
  }

  async renameConversation(id: string, title: string): Promise<Conversation> {
    const body = await this.request('PATCH', `/api/conversations/${seg(id)}`, { title })
    return decoded(body, decodeConversationBody, 'conversation')
  }

  /** Asks the agent to title the conversation from its messages. */
  async generateTitle(id: string): Promise<Conversation> {
    const body = await this.request('PATCH', `/api/conversations/${seg(id)}`, { generate: true })
    return decoded(body, decodeConversationBody, 'conversation')
  }

  async deleteConversation(id: string): Promise<OkResult> {
    return decodeOk(await this.request('DELETE', `/api/conversations/${seg(id)}`))
  }

  // Messages and runs

  /**
   * A page of the conversation's active branch, oldest first: the newest, or
   * the one before, after or around a message (docs/chat.md, Branches), with
   * the display rows of its runs.
   */
  async listMessages(conversationId: string, query: PageQuery = {}): Promise<MessagePage> {
    const params = new URLSearchParams()
    for (const key of ['before', 'after', 'around'] as const) {
      const id = query[key]
      if (id !== undefined) params.set(key, id)
    }
    if (query.limit !== undefined) params.set('limit', String(Math.max(1, Math.floor(query.limit))))
    const q = params.toString()
    const body = await this.request('GET', `/api/conversations/${seg(conversationId)}/messages${q === '' ? '' : `?${q}`}`)
    const page = decoded(body, decodeMessagesPage, 'messages')
    if (page.displayMessages !== null) return { ...page, displayMessages: page.displayMessages }
    // A server from before pages sends no display rows with them: ask for them apart.
    const runs = new Set(page.messages.map((m) => m.runId))
    const rows = await this.listDisplayMessages(conversationId).catch(() => [])
    return { ...page, displayMessages: rows.filter((d) => runs.has(d.runId)) }
  }

  /** Sends and waits for the whole reply. */
  async sendMessage(conversationId: string, req: ChatRequest): Promise<SendResult> {
    const body = await this.request('POST', `/api/conversations/${seg(conversationId)}/messages`, { ...req })
    return decoded(body, decodeSendResult, 'send')
  }

  /**
   * Sends and streams the reply in the delta dialect (docs/chat.md). Rejects
   * with ApiError when the server refuses (409 busy, 503 no model).
   */
  async streamMessage(conversationId: string, req: ChatRequest, opts: StreamOptions = {}): Promise<ChatStream> {
    const path = `/api/conversations/${seg(conversationId)}/messages/stream?dialect=${CHAT_DIALECT}`
    return this.openStream('POST', path, { ...req }, null, opts)
  }

  /**
   * Edits a user message: its new text becomes a sibling of messageId (a new
   * branch, shown from now on) and the reply streams as streamMessage's does;
   * the stream's messageId is the new user message's. Rejects with ApiError
   * (404 unknown message, 400 not a user message or empty text, 409 busy).
   */
  async editMessage(conversationId: string, messageId: string, req: ChatRequest, opts: StreamOptions = {}): Promise<ChatStream> {
    const path = `/api/conversations/${seg(conversationId)}/messages/${seg(messageId)}/edit?dialect=${CHAT_DIALECT}`
    return this.openStream('POST', path, { ...req }, null, opts)
  }

  /**
   * Asks again for the reply messageId (an assistant message): a new reply,
   * its sibling, streams as streamMessage's does; the stream's messageId is
   * the new reply's. Rejects as editMessage does.
   */
  async regenerate(conversationId: string, messageId: string, opts: StreamOptions = {}): Promise<ChatStream> {
    const path = `/api/conversations/${seg(conversationId)}/messages/${seg(messageId)}/regenerate?dialect=${CHAT_DIALECT}`
    return this.openStream('POST', path, {}, null, opts)
  }

  /** Shows the branch through messageId (down to its newest leaf); answers that branch's newest page. */
  async setBranch(conversationId: string, messageId: string): Promise<MessagePage> {
    const body = await this.request('PUT', `/api/conversations/${seg(conversationId)}/branch`, { messageId })
    return decoded(body, decodeMessagePage, 'branch')
  }

  /**
   * Streams a run's frames with a sequence number above `after` (0: from the
   * start) in the delta dialect; a resume (after > 0) begins with the reply so
   * far. A run that has ended with nothing after `after` answers 204: the
   * stream then has runEnded set and no frames.
   */
  async streamRun(runId: string, after: number, opts: StreamOptions = {}): Promise<ChatStream> {
    const path = `/api/runs/${seg(runId)}/stream?dialect=${CHAT_DIALECT}&after=${Math.max(0, Math.floor(after))}`
    return this.openStream('GET', path, undefined, runId, opts)
  }

  async getRun(runId: string): Promise<Run> {
    return decoded(await this.request('GET', `/api/runs/${seg(runId)}`), decodeRunBody, 'run')
  }

  /**
   * Stops an active run and resolves once it has ended (its stream then ends
   * with an "interrupted" error frame). Rejects with ApiError 409 when the
   * run had already ended, 404 when there is no such run.
   */
  async cancelRun(runId: string): Promise<OkResult> {
    return decodeOk(await this.request('POST', `/api/runs/${seg(runId)}/cancel`, {}))
  }

  /** Deletes messageId's successors, and messageId itself when inclusive. */
  async truncateMessages(conversationId: string, messageId: string, inclusive = false): Promise<TruncateResult> {
    const path = `/api/conversations/${seg(conversationId)}/messages/truncate`
    return decoded(await this.request('POST', path, { messageId, inclusive }), decodeTruncate, 'truncate')
  }

  async listDisplayMessages(conversationId: string): Promise<DisplayMessage[]> {
    const body = await this.request('GET', `/api/conversations/${seg(conversationId)}/display-messages`)
    return decoded(body, decodeDisplayMessageList, 'display-messages')
  }

  // Attachments (docs/attachments.md)

  /**
   * Uploads a file's bytes (POST /api/attachments?name=); rejects with
   * ApiError (413 beyond a limit, with the server's message), or with the
   * abort when opts.signal aborts it.
   */
  uploadAttachment(file: Blob, name: string, opts: UploadOptions = {}): Promise<Attachment> {
    return this.attachments.upload(file, name, opts)
  }

  /** An attachment's bytes as a held object URL (cached by id; release it when not shown). */
  attachmentBlob(id: string): Promise<ObjectUrl> {
    return this.attachments.blob(id)
  }

  /** An image attachment's thumbnail as a held object URL (cached by id; release it when not shown). */
  attachmentThumbnail(id: string): Promise<ObjectUrl> {
    return this.attachments.thumbnail(id)
  }

  // Export and import (docs/export.md)

  /** One conversation's export, or every conversation's when id is null, as the file to save. */
  async exportConversations(id: string | null, format: ExportFormat): Promise<ExportFile> {
    const path = id === null ? `/api/export?format=${format}` : `/api/conversations/${seg(id)}/export?format=${format}`
    const res = await this.fetchOrThrow(path, {
      method: 'GET',
      headers: this.headers(EXPORT_ACCEPT[format]),
      cache: 'no-store',
    })
    if (!res.ok) throw errorFromBody(res, parseJSON(await res.text().catch(() => '')))
    let blob: Blob
    try {
      blob = await res.blob()
    } catch (err) {
      throw new ApiError(0, `the export was cut short: ${errorText(err)}`)
    }
    return { filename: filenameFromDisposition(res.headers.get('Content-Disposition'), `wisp-export.${format}`), blob }
  }

  /** Brings in a Wisp export (JSON, or the .zip with its files) or ChatGPT's conversations.json, sent as it is. */
  async importConversations(file: Blob, format: ImportFormat = 'auto'): Promise<ImportResult> {
    const headers: Record<string, string> = { ...this.headers('application/json'), 'Content-Type': 'application/json' }
    if (await isZip(file)) {
      headers['Content-Type'] = 'application/zip'
      headers[UPLOAD_HEADER] = '1'
    }
    const res = await this.fetchOrThrow(`/api/import?format=${format}`, { method: 'POST', headers, body: file })
    const text = await res.text().catch(() => '')
    const reply = { ok: res.ok, status: res.status, statusText: res.statusText, parsed: parseJSON(text) }
    return decoded(answer(reply, '/api/import'), decodeImportResult, 'import')
  }

  // Search (docs/search.md)

  /**
   * The messages of every conversation that match the words of q, best first;
   * the last word matches as a prefix unless q ends in a space. Rejects with
   * ApiError 400 (no words, q too long, a bad limit or cursor); an abort
   * through opts.signal rethrows the abort as it is.
   */
  async search(q: string, opts: SearchOptions = {}): Promise<SearchResults> {
    const params = new URLSearchParams({ q })
    if (opts.limit !== undefined) params.set('limit', String(opts.limit))
    if (opts.cursor !== undefined) params.set('cursor', opts.cursor)
    const body = await this.request('GET', `/api/search?${params.toString()}`, undefined, undefined, opts.signal)
    return decoded(body, decodeSearchResults, 'search')
  }

  // Provider

  async getProvider(): Promise<ProviderInfo> {
    return decoded(await this.request('GET', '/api/provider'), decodeProvider, 'provider')
  }

  async setProvider(update: ProviderUpdate): Promise<ProviderInfo> {
    return decoded(await this.request('PUT', '/api/provider', { ...update }), decodeProvider, 'provider')
  }

  // Terminal (docs/terminal.md)

  /** Shell access settings and the active and recent runs, newest first. */
  async listTerminalRuns(): Promise<TerminalRunList> {
    return decoded(await this.request('GET', '/api/terminal/runs'), decodeTerminalRunList, 'terminal runs')
  }

  /** A run with its scrollback. */
  async getTerminalRun(runId: string): Promise<TerminalRunDetail> {
    const body = await this.request('GET', `/api/terminal/runs/${seg(runId)}`)
    return decoded(body, decodeTerminalRunDetail, 'terminal run')
  }

  /**
   * Starts `$SHELL -c command` in a pseudo-terminal; its output goes to the
   * sockets of auth.clientId. Rejects with ApiError 400 (bad command or
   * size), 401 (terminal token missing or wrong), 403 (shell access off or
   * refused) and 429 (too many runs).
   */
  async startTerminalRun(req: StartTerminalRunRequest, auth: TerminalAuth): Promise<StartTerminalRunResult> {
    const extra: Record<string, string> = { 'X-Client-Id': auth.clientId }
    if (auth.terminalToken) extra['X-Terminal-Token'] = auth.terminalToken
    const body: JsonObject = { command: req.command, clientId: auth.clientId }
    if (req.cols !== undefined) body.cols = req.cols
    if (req.rows !== undefined) body.rows = req.rows
    return decoded(await this.request('POST', '/api/terminal/run', body, extra), decodeStartTerminalRun, 'terminal run')
  }

  /** SIGTERM (then SIGKILL) to the run's process group. 404 unknown run, 409 already ended. */
  async killTerminalRun(runId: string): Promise<OkResult> {
    return decodeOk(await this.request('POST', `/api/terminal/runs/${seg(runId)}/kill`, {}))
  }

  // Settings (the config file) and restarts

  /** The config file's values (secrets left out), how each setting applies, and what is pending. */
  async getConfig(): Promise<ConfigSnapshot> {
    return decoded(await this.request('GET', '/api/config'), decodeConfigSnapshot, 'config')
  }

  /**
   * Applies a JSON Merge Patch to the config file (null resets a key, or
   * clears a secret) and resolves with the new snapshot once hot settings are
   * live. Rejects with ApiError 400 (unknown setting, wrong type, invalid
   * value; the message names the setting) and 409 (the file on disk has an
   * error).
   */
  async patchConfig(patch: MergePatch): Promise<ConfigSnapshot> {
    return decoded(await this.request('PUT', '/api/config', { ...patch }), decodeConfigSnapshot, 'config')
  }

  /** Turns shell access on or off in the config file; it takes effect after a restart. */
  async setShellAccess(enabled: boolean): Promise<ShellAccessResult> {
    const body = await this.request('PUT', '/api/permissions/shell', { enabled })
    return decoded(body, decodeShellAccess, 'shell access')
  }

  /**
   * Restarts the agent with the saved settings and resolves once it runs
   * again, with where the server listens now. Rejects with ApiError 409 when
   * a restart is in progress or the new settings cannot be applied (the old
   * ones keep running).
   */
  async restartAgent(): Promise<RestartResult> {
    return decoded(await this.request('POST', '/api/agent/restart'), decodeRestartResult, 'restart')
  }

  // Reminders and the autonomy loop (docs/proactive.md)

  /** Pending reminders by time, then the 50 most recently delivered. */
  async listReminders(): Promise<Reminder[]> {
    return decoded(await this.request('GET', '/api/reminders'), decodeReminderList, 'reminders')
  }

  /**
   * Schedules a reminder (in a conversation, or routed like other proactive
   * messages without one). Rejects with ApiError 400 (no text, both or
   * neither of at and inMinutes, a time in the past) and 404 (no such
   * conversation).
   */
  async createReminder(req: NewReminder): Promise<Reminder> {
    const body: JsonObject = { text: req.text }
    if (req.conversationId !== undefined) body.conversationId = req.conversationId
    if (req.at !== undefined) body.at = req.at
    if (req.inMinutes !== undefined) body.inMinutes = req.inMinutes
    return decoded(await this.request('POST', '/api/reminders', body), decodeReminder, 'reminder')
  }

  /** 404 when there is no such reminder. */
  async deleteReminder(id: string): Promise<OkResult> {
    return decodeOk(await this.request('DELETE', `/api/reminders/${seg(id)}`))
  }

  async getAutonomy(): Promise<AutonomyState> {
    return decoded(await this.request('GET', '/api/agent/autonomy'), decodeAutonomy, 'autonomy')
  }

  /** Writes autonomy.enabled to the config file. Rejects with ApiError 409 while the file on disk is broken. */
  async setAutonomy(enabled: boolean): Promise<AutonomyState> {
    return decoded(await this.request('POST', '/api/agent/autonomy', { enabled }), decodeAutonomy, 'autonomy')
  }

  // Approvals (of shell commands and MCP tool calls) and grants (docs/approvals.md)

  /** The approvals still waiting for a decision. */
  async listApprovals(): Promise<Approval[]> {
    return decoded(await this.request('GET', '/api/approvals'), decodeApprovalList, 'approvals')
  }

  /**
   * Decides an approval. Resolves with {ok: true, approval} when this decision
   * won, and {ok: false, decision} when the approval had already been decided
   * (409, decision: the one taken) or cancelled (decision null). Rejects with
   * ApiError for anything else (400 bad body, 404 unknown id). bases, with
   * approve_always, are the base commands to grant (default: all it can).
   * text, with approve of a memory approval, is the text to save instead of
   * the one proposed (the user edited it).
   */
  async decideApproval(
    id: string,
    decision: ApprovalDecision,
    note = '',
    bases: readonly string[] = [],
    text?: string,
  ): Promise<DecideResult> {
    const body: JsonObject = { decision }
    if (note !== '') body.note = note
    if (bases.length > 0) body.bases = [...bases]
    if (text !== undefined) body.text = text
    const path = `/api/approvals/${seg(id)}`
    const reply = await this.exchange('POST', path, body)
    if (reply.status === 409) {
      const conflict = decodeDecisionConflict(reply.parsed)
      if (conflict === null) throw new ApiError(409, 'malformed approval conflict response')
      return { ok: false, ...conflict }
    }
    return { ok: true, approval: decoded(answer(reply, path), decodeApprovalBody, 'approval') }
  }

  /** The base commands and MCP tools the user always allows. */
  async listGrants(): Promise<Grant[]> {
    return decoded(await this.request('GET', '/api/grants'), decodeGrantList, 'grants')
  }

  /** Revokes a grant (204). Rejects with ApiError 404 when there is none. */
  async deleteGrant(id: string): Promise<void> {
    const reply = await this.exchange('DELETE', `/api/grants/${seg(id)}`)
    if (!reply.ok) throw errorFromBody(reply, reply.parsed)
  }

  // MCP servers: their tools are the agent's actions server__tool

  /** Every server of wisp.json's mcpServers, by name, with its status and tools. */
  async listMcpServers(): Promise<McpServer[]> {
    return decoded(await this.request('GET', '/api/mcp/servers'), decodeMcpServerList, 'MCP servers')
  }

  /** Stops and starts a server again (202: it is starting). Rejects with ApiError 404 for an unknown name. */
  async restartMcpServer(name: string): Promise<McpServer> {
    const body = await this.request('POST', `/api/mcp/servers/${seg(name)}/restart`, {})
    return decoded(body, decodeMcpServerBody, 'MCP server')
  }

  /**
   * Adds (201) or replaces (200) a server in wisp.json; it applies live. In
   * env and headers null keeps a current value and a key left out is
   * removed. Rejects with ApiError 400 (the server's message says what is
   * wrong: a bad name, both or neither of command and url, …).
   */
  async saveMcpServer(name: string, edit: McpServerEdit): Promise<McpServerSaved> {
    const path = `/api/mcp/servers/${seg(name)}`
    const reply = await this.exchange('PUT', path, { ...edit })
    const server = decoded(answer(reply, path), decodeMcpServerBody, 'MCP server')
    return { server, created: reply.status === 201 }
  }

  /** Removes a server from wisp.json and stops it (204). Rejects with ApiError 404 when there is none. */
  async deleteMcpServer(name: string): Promise<void> {
    const reply = await this.exchange('DELETE', `/api/mcp/servers/${seg(name)}`)
    if (!reply.ok) throw errorFromBody(reply, reply.parsed)
  }

  // Emotes (the avatar's animations)

  /** The avatar and the emotes the server knows now (user packs can change it at run time). */
  async listEmotes(): Promise<EmoteCatalog> {
    return decoded(await this.request('GET', '/api/emotes'), decodeEmoteCatalog, 'emotes')
  }

  /** Plays an emote on every client ("idle" stops the current one). 400 for an unknown id. */
  async playEmote(emoteId: string): Promise<OkResult> {
    return decodeOk(await this.request('POST', '/api/emote', { emoteId }))
  }

  /** A server path ("/emotes/wave.glb") as an absolute URL on the API's origin. */
  assetURL(path: string): string {
    return `${this.baseURL}${path.startsWith('/') ? '' : '/'}${path}`
  }

  private headers(accept: string): Record<string, string> {
    const headers: Record<string, string> = { Accept: accept }
    if (this.token !== '') headers.Authorization = `Bearer ${this.token}`
    return headers
  }

  /** A JSON request whose answer must be a JSON body with a 2xx status. */
  private async request(
    method: Method,
    path: string,
    body?: JsonObject,
    extraHeaders?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return answer(await this.exchange(method, path, body, extraHeaders, signal), path)
  }

  /** fetch, with a failure to reach the server as ApiError(0). */
  private async fetchOrThrow(path: string, init: RequestInit): Promise<Response> {
    try {
      return await this.fetchImpl(`${this.baseURL}${path}`, init)
    } catch (err) {
      throw new ApiError(0, `cannot reach the Wisp server: ${errorText(err)}`)
    }
  }

  /** Sends a JSON request; any answer comes back with its status and its parsed body (undefined when not JSON). */
  private async exchange(
    method: Method,
    path: string,
    body?: JsonObject,
    extraHeaders?: Record<string, string>,
    signal?: AbortSignal,
  ): Promise<Reply> {
    const headers = { ...this.headers('application/json'), ...extraHeaders }
    const init: RequestInit = { method, headers }
    if (signal !== undefined) init.signal = signal
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    let res: Response
    try {
      res = await this.fetchImpl(`${this.baseURL}${path}`, init)
    } catch (err) {
      if (signal?.aborted) throw err
      throw new ApiError(0, `cannot reach the Wisp server: ${errorText(err)}`)
    }
    const text = await res.text().catch((err: unknown) => {
      if (signal?.aborted) throw err
      return ''
    })
    return { ok: res.ok, status: res.status, statusText: res.statusText, parsed: parseJSON(text) }
  }

  private async openStream(
    method: Method,
    path: string,
    body: JsonObject | undefined,
    knownRunId: string | null,
    opts: StreamOptions,
  ): Promise<ChatStream> {
    const headers = this.headers('text/event-stream')
    const init: RequestInit = { method, headers, cache: 'no-store' }
    if (opts.signal !== undefined) init.signal = opts.signal
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    let res: Response
    try {
      res = await this.fetchImpl(`${this.baseURL}${path}`, init)
    } catch (err) {
      if (opts.signal?.aborted) throw err
      throw new ApiError(0, `cannot reach the Wisp server: ${errorText(err)}`)
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '')
      throw errorFromBody(res, parseJSON(text))
    }
    if (res.status === 204) {
      await res.body?.cancel().catch(() => undefined)
      return { runId: res.headers.get(RUN_ID_HEADER) ?? knownRunId, runEnded: true, messageId: null, frames: noFrames() }
    }
    const type = res.headers.get('Content-Type') ?? ''
    if (!type.toLowerCase().startsWith('text/event-stream') || res.body === null) {
      await res.body?.cancel().catch(() => undefined)
      throw new ApiError(res.status, `${path}: expected an event stream, got "${type || 'no content type'}"`)
    }
    const frames = chatFrames(res.body, { idleTimeoutMs: opts.idleTimeoutMs ?? DEFAULT_STREAM_IDLE_MS })
    return {
      runId: res.headers.get(RUN_ID_HEADER) ?? knownRunId,
      runEnded: false,
      messageId: res.headers.get(MESSAGE_ID_HEADER),
      frames: lostConnectionAsApiError(frames, opts.signal),
    }
  }
}

/** Whether a file is a zip archive (it begins with a local file header), whatever its name or type says. */
async function isZip(file: Blob): Promise<boolean> {
  if (file.type === 'application/zip' || file.type === 'application/x-zip-compressed') return true
  if (file.size < 4) return false
  const head = new Uint8Array(await file.slice(0, 4).arrayBuffer())
  return head[0] === 0x50 && head[1] === 0x4b && head[2] === 0x03 && head[3] === 0x04
}

/** Read failures become ApiError(0); an abort the caller asked for passes through. */
async function* lostConnectionAsApiError(
  frames: AsyncGenerator<SeqFrame, void, undefined>,
  signal: AbortSignal | undefined,
): AsyncGenerator<SeqFrame, void, undefined> {
  try {
    yield* frames
  } catch (err) {
    if (signal?.aborted) throw err
    throw new ApiError(0, `lost the connection to the server: ${errorText(err)}`)
  }
}

function decoded<T>(body: unknown, decode: (v: unknown) => T | null, what: string): T {
  const value = decode(body)
  if (value === null) throw new ApiError(200, `malformed ${what} response`)
  return value
}

/** An answer of exchange(). */
interface Reply {
  ok: boolean
  status: number
  statusText: string
  parsed: unknown
}

/** The body of a 2xx JSON answer; anything else is thrown as ApiError. */
function answer(reply: Reply, what: string): unknown {
  if (!reply.ok) throw errorFromBody(reply, reply.parsed)
  if (reply.parsed === undefined) throw new ApiError(reply.status, `${what}: response is not JSON`)
  return reply.parsed
}

function errorFromBody(res: Pick<Reply, 'status' | 'statusText'>, parsed: unknown): ApiError {
  const message =
    isObject(parsed) && typeof parsed.error === 'string' ? parsed.error : `${res.status} ${res.statusText}`.trim()
  return new ApiError(res.status, message)
}

function decodeOk(body: unknown): OkResult {
  if (!isObject(body) || typeof body.ok !== 'boolean') throw new ApiError(200, 'malformed response')
  return { ok: body.ok }
}

function parseJSON(text: string): unknown {
  if (text === '') return undefined
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
