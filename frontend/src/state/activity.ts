// The Activity list: incoming stream envelopes, newest first, capped.

import { decodeAssistantPayload, decodeAutonomyPayload, type AutonomyPayload, type JsonObject, type StreamEnvelope } from '../api'
import { compactJSON, formatDuration } from '../format'

export const ACTIVITY_CAP = 200

export interface ActivityEntry {
  /** eventId@ts: unique per server run, stable across replays. */
  key: string
  envelope: StreamEnvelope
}

export function activityKey(env: StreamEnvelope): string {
  return `${env.eventId}@${env.ts}`
}

/** Prepends env unless it is already listed (a replay); keeps at most cap entries. */
export function addActivity(
  list: readonly ActivityEntry[],
  env: StreamEnvelope,
  cap = ACTIVITY_CAP,
): ActivityEntry[] {
  const key = activityKey(env)
  if (list.some((e) => e.key === key)) return list as ActivityEntry[]
  return [{ key, envelope: env }, ...list].slice(0, cap)
}

// ---- How an entry reads in the Activity list ----

/** What an activity item shows in place of its raw payload. */
export type ActivityView =
  | {
      kind: 'text'
      /** One readable line, e.g. "Sent in 352 ms — You said: hi". */
      text: string
      /** Title of the conversation the event belongs to, when known. */
      conversation?: string
      /** Heartbeat status (thinking/replying/sent/failed/...), for styling. */
      status?: string
    }
  | {
      kind: 'json'
      /** One-line JSON, cut at JSON_COMPACT_MAX characters. */
      compact: string
      /** Indented JSON shown when expanded; only set when compact is long. */
      full?: string
    }

/** Longest preview kept in a heartbeat line. */
export const PREVIEW_MAX = 160
/** Compact JSON longer than this (about two lines of the panel) gets an expander. */
export const JSON_INLINE_MAX = 80
const JSON_COMPACT_MAX = 400
const JSON_FULL_MAX = 20_000

export type ConversationTitleLookup = (conversationId: string) => string | undefined

/**
 * Describes env for the Activity list: chat heartbeats and agent events carrying text
 * read as a sentence, anything else as compact JSON so it stays visible.
 */
export function describeActivity(env: StreamEnvelope, titleOf?: ConversationTitleLookup): ActivityView {
  const p = env.payload
  const status = typeof p.status === 'string' ? p.status.trim() : ''
  if (env.type === 'heartbeat_event' && status !== '') {
    const view: ActivityView = { kind: 'text', text: heartbeatLine(status, p), status }
    const title = typeof p.conversationId === 'string' ? titleOf?.(p.conversationId)?.trim() : undefined
    if (title) view.conversation = title
    return view
  }
  if (env.type === 'agent_event' && env.stream === 'autonomy') {
    const payload = decodeAutonomyPayload(p)
    const view = payload === null ? null : autonomyLine(payload)
    if (view !== null) return view
  }
  const said = env.type === 'agent_event' ? decodeAssistantPayload(p) : null
  if (said !== null && said.text.trim() !== '') return { kind: 'text', text: said.text }
  return jsonView(p)
}

const SKIP_REASONS: Record<string, string> = {
  cooldown: 'you spoke a moment ago',
  'rate-limit': 'enough messages this hour',
  'no-model': 'no model to think with',
  busy: 'a reply is being written',
}

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : '')

/** The autonomy loop's envelopes (docs/proactive.md) as sentences; null for an empty thought. */
function autonomyLine(p: AutonomyPayload): ActivityView | null {
  switch (p.kind) {
    case 'tick':
      return { kind: 'text', text: `Tick ${p.tick}: looking around…`, status: 'thinking' }
    case 'thought':
      return p.text.trim() === '' ? null : { kind: 'text', text: `Thought: ${oneLine(p.text, PREVIEW_MAX)}` }
    case 'decision':
      if (p.decision === 'speak') return { kind: 'text', text: 'Decided to speak' }
      return { kind: 'text', text: str(p.reason) === '' ? 'Stayed silent' : `Stayed silent — ${oneLine(str(p.reason), PREVIEW_MAX)}` }
    case 'skipped': {
      const reason = p.reason.trim()
      return { kind: 'text', text: `Skipped a check: ${SKIP_REASONS[reason] ?? (reason || 'no reason given')}` }
    }
    case 'error':
      return { kind: 'text', text: `Autonomy error: ${oneLine(p.message.trim() || 'unknown', PREVIEW_MAX)}`, status: 'failed' }
  }
}

function heartbeatLine(status: string, p: JsonObject): string {
  if (status === 'thinking') return 'Thinking…'
  const preview = typeof p.preview === 'string' ? oneLine(p.preview, PREVIEW_MAX) : ''
  const ms = typeof p.durationMs === 'number' && Number.isFinite(p.durationMs) && p.durationMs >= 0 ? p.durationMs : null
  let head: string
  switch (status) {
    case 'replying':
      head = 'Replying'
      break
    case 'sent':
      head = ms === null ? 'Sent' : `Sent in ${formatMs(ms)}`
      break
    case 'failed':
      head = ms === null ? 'Failed' : `Failed after ${formatMs(ms)}`
      break
    default:
      head = status
  }
  return preview === '' ? head : `${head} — ${preview}`
}

/** 352 → "352 ms", 4_321 → "4.3 s", 61_000 → "1m 1s". */
export function formatMs(ms: number): string {
  const r = Math.round(ms)
  if (r < 1000) return `${r} ms`
  if (r < 60_000) return `${(Math.floor(r / 100) / 10).toFixed(1)} s`
  return formatDuration(r)
}

/** Whitespace runs (newlines included) become one space; cut at max with an ellipsis. */
function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim()
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t
}

function jsonView(payload: JsonObject): ActivityView {
  const compact = compactJSON(payload, JSON_COMPACT_MAX)
  if (compact.length <= JSON_INLINE_MAX) return { kind: 'json', compact }
  let full: string
  try {
    full = JSON.stringify(payload, null, 2) ?? compact
  } catch {
    full = compact
  }
  if (full.length > JSON_FULL_MAX) full = `${full.slice(0, JSON_FULL_MAX - 1)}…`
  return { kind: 'json', compact, full }
}
