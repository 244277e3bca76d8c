// "Thinking…/replying…" per conversation, from heartbeat_event envelopes
// that describe a chat turn (docs/chat.md, /ws events from chat).

import { decodeTurnHeartbeat, type StreamEnvelope, type TurnHeartbeat } from '../api'

/** Conversations with a turn in progress, by conversation id. */
export type Turns = Readonly<Record<string, TurnHeartbeat>>

export function applyHeartbeat(turns: Turns, env: StreamEnvelope): Turns {
  if (env.type !== 'heartbeat_event') return turns
  const beat = decodeTurnHeartbeat(env.payload, env.ts)
  if (beat === null) return turns
  const prev = turns[beat.conversationId]
  if (prev !== undefined && prev.ts > beat.ts) return turns // a replayed, older beat
  if (beat.status === 'thinking' || beat.status === 'replying') return { ...turns, [beat.conversationId]: beat }
  return endTurn(turns, beat.conversationId)
}

export function endTurn(turns: Turns, conversationId: string): Turns {
  if (!(conversationId in turns)) return turns
  const { [conversationId]: _ended, ...rest } = turns
  return rest
}

export function turnLabel(turn: TurnHeartbeat | undefined): string | null {
  if (turn === undefined) return null
  return turn.status === 'thinking' ? 'thinking…' : 'replying…'
}
