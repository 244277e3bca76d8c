// The Activity list: what Wisp did, in words a user reads, newest first,
// capped. It is built from the /ws envelopes: a chat turn's heartbeats are
// one entry that follows the turn ("Wisp is thinking…", "Wisp is
// replying…", "Wisp replied in 4.3 s — …"); the autonomy loop's thoughts and
// decisions read as sentences; its clock (ticks, skipped checks) is left
// out, being only for developers. An event another program posted
// (POST /api/events) shows its payload as it came.

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

/** The chat turn a heartbeat reports on (its run), or null for any other envelope. */
function turnOf(env: StreamEnvelope): string | null {
  if (env.type !== 'heartbeat_event') return null
  const run = env.payload.runId
  return typeof run === 'string' && run !== '' ? run : null
}

/** Envelopes only a developer needs: the autonomy loop's ticks and skipped checks. */
export function developerOnly(env: StreamEnvelope): boolean {
  if (env.type !== 'agent_event' || env.stream !== 'autonomy') return false
  const kind = env.payload.kind
  return kind === 'tick' || kind === 'skipped'
}

/**
 * Prepends env unless it is already listed (a replay) or only for
 * developers; a heartbeat replaces the entry of its turn. Keeps at most cap
 * entries.
 */
export function addActivity(
  list: readonly ActivityEntry[],
  env: StreamEnvelope,
  cap = ACTIVITY_CAP,
): ActivityEntry[] {
  const key = activityKey(env)
  if (developerOnly(env) || list.some((e) => e.key === key)) return list as ActivityEntry[]
  const turn = turnOf(env)
  const rest = turn === null ? list : list.filter((e) => turnOf(e.envelope) !== turn)
  return [{ key, envelope: env }, ...rest].slice(0, cap)
}

// ---- How an entry reads in the Activity list ----

/** What an activity item shows in place of its raw payload. */
export type ActivityView =
  | {
      kind: 'text'
      /** What kind of thing happened, for the item's head ("Chat", "Autonomy"). */
      label: string
      /** One readable line, e.g. "Wisp replied in 352 ms — You said: hi". */
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
 * Describes env for the Activity list: chat heartbeats, the autonomy loop's
 * events and agent events carrying text read as a sentence; anything else
 * (an event another program posted) as compact JSON so it stays visible.
 * agent is the assistant's name.
 */
export function describeActivity(env: StreamEnvelope, titleOf?: ConversationTitleLookup, agent = 'Wisp'): ActivityView {
  const p = env.payload
  const status = typeof p.status === 'string' ? p.status.trim() : ''
  if (env.type === 'heartbeat_event' && status !== '') {
    const view: ActivityView = { kind: 'text', label: 'Chat', text: heartbeatLine(agent, status, p), status }
    const title = typeof p.conversationId === 'string' ? titleOf?.(p.conversationId)?.trim() : undefined
    if (title) view.conversation = title
    return view
  }
  if (env.type === 'agent_event' && env.stream === 'autonomy') {
    const payload = decodeAutonomyPayload(p)
    const view = payload === null ? null : autonomyLine(agent, payload)
    if (view !== null) return view
  }
  const said = env.type === 'agent_event' ? decodeAssistantPayload(p) : null
  if (said !== null && said.text.trim() !== '') return { kind: 'text', label: env.stream === 'assistant' ? agent : env.stream || 'Event', text: said.text }
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
function autonomyLine(agent: string, p: AutonomyPayload): ActivityView | null {
  const line = (text: string, status?: string): ActivityView =>
    status === undefined ? { kind: 'text', label: 'Autonomy', text } : { kind: 'text', label: 'Autonomy', text, status }
  switch (p.kind) {
    case 'tick':
      return line(`${agent} is looking around…`, 'thinking')
    case 'thought':
      return p.text.trim() === '' ? null : line(`${agent} thought: ${oneLine(p.text, PREVIEW_MAX)}`)
    case 'decision':
      if (p.decision === 'speak') return line(`${agent} decided to speak up`)
      return line(str(p.reason) === '' ? `${agent} stayed quiet` : `${agent} stayed quiet — ${oneLine(str(p.reason), PREVIEW_MAX)}`)
    case 'skipped': {
      const reason = p.reason.trim()
      return line(`${agent} did not look around: ${SKIP_REASONS[reason] ?? (reason || 'no reason given')}`)
    }
    case 'error':
      return line(`${agent} could not think on its own: ${oneLine(p.message.trim() || 'unknown error', PREVIEW_MAX)}`, 'failed')
  }
}

/** How a turn that did not finish ended, by the status its failed heartbeat carries. */
const UNFINISHED: Record<string, string> = {
  interrupted: 'The reply was stopped',
  failed: 'The reply failed',
}

function heartbeatLine(agent: string, status: string, p: JsonObject): string {
  const preview = typeof p.preview === 'string' ? oneLine(p.preview, PREVIEW_MAX) : ''
  const ms = typeof p.durationMs === 'number' && Number.isFinite(p.durationMs) && p.durationMs >= 0 ? p.durationMs : null
  switch (status) {
    case 'thinking':
      return `${agent} is thinking…`
    case 'replying':
      // The preview is only the reply's first words: the chat shows the rest.
      return `${agent} is replying…`
    case 'sent': {
      const head = ms === null ? `${agent} replied` : `${agent} replied in ${formatMs(ms)}`
      return preview === '' ? head : `${head} — ${preview}`
    }
    case 'failed': {
      const head = UNFINISHED[preview] ?? (preview === '' ? 'The reply failed' : `The reply did not finish: ${preview}`)
      return ms === null ? head : `${head} after ${formatMs(ms)}`
    }
    default:
      return preview === '' ? status : `${status} — ${preview}`
  }
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
