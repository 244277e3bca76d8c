// Runtime checks for the answer of POST /api/agent/restart: the agent's new
// status and where the server listens now.

import type { RestartResult, ServerEndpoint } from './configTypes'
import { decodeStatus } from './decode'
import { isBoolean, isObject, isString } from './guards'

function decodeEndpoint(v: unknown): ServerEndpoint | null {
  if (!isObject(v) || !isString(v.baseURL) || !isString(v.wsURL)) return null
  if (!isHttpURL(v.baseURL)) return null
  return { baseURL: v.baseURL.replace(/\/+$/, ''), wsURL: v.wsURL }
}

function isHttpURL(s: string): boolean {
  try {
    const url = new URL(s)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

export function decodeRestartResult(v: unknown): RestartResult | null {
  if (!isObject(v) || !isBoolean(v.ok)) return null
  const status = decodeStatus(v.status)
  if (status === null) return null
  return { ok: v.ok, status, connection: decodeEndpoint(v.connection) }
}
