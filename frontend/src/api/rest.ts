// Typed client for the backend's JSON HTTP API. Every failure, including a
// network error (status 0) or an unexpected body, is thrown as ApiError.

import { decodeStatus, isObject } from './decode'
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

export class ApiClient {
  private readonly baseURL: string
  private readonly token: string
  private readonly fetchImpl: typeof fetch

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

  async uiReady(): Promise<OkResult> {
    return decodeOk(await this.request('POST', '/api/ui/ready', { api: true, ws: true }))
  }

  private async request(method: 'GET' | 'POST', path: string, body?: JsonObject): Promise<unknown> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    if (this.token !== '') headers.Authorization = `Bearer ${this.token}`
    const init: RequestInit = { method, headers }
    if (body !== undefined) {
      headers['Content-Type'] = 'application/json'
      init.body = JSON.stringify(body)
    }
    let res: Response
    try {
      res = await this.fetchImpl(`${this.baseURL}${path}`, init)
    } catch (err) {
      throw new ApiError(0, `cannot reach the Wisp server: ${errorText(err)}`)
    }
    const text = await res.text().catch(() => '')
    const parsed = parseJSON(text)
    if (!res.ok) {
      const message =
        isObject(parsed) && typeof parsed.error === 'string'
          ? parsed.error
          : `${res.status} ${res.statusText}`.trim()
      throw new ApiError(res.status, message)
    }
    if (parsed === undefined) throw new ApiError(res.status, `${path}: response is not JSON`)
    return parsed
  }
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
