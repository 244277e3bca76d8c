// Wire types of the emote API (GET /api/emotes, POST /api/emote and the
// "emote" /ws frame). Decoders live in emoteDecode.ts; nothing here has
// behaviour.

/** Built-in categories in the order the picker shows them; user packs may add others. */
export const BUILTIN_EMOTE_CATEGORIES = ['greeting', 'emotion', 'dance', 'combat', 'idle', 'movement'] as const

/** The emote that is the avatar's resting loop; playing it stops any other emote. */
export const IDLE_EMOTE_ID = 'idle'

export type EmoteSource = 'builtin' | 'user'

/** One emote of GET /api/emotes. */
export interface Emote {
  id: string
  name: string
  description: string
  /** A lower-case word; see BUILTIN_EMOTE_CATEGORIES. */
  category: string
  /** Path of the clip GLB, resolved against the API base (no token needed). */
  glbPath: string
  /** Seconds; after this a non-looping emote returns to idle. */
  duration: number
  loop: boolean
  source: EmoteSource
  /** The line the chat shows while the agent plays it ("Waving 👋"). */
  status: string
}

/** GET /api/emotes */
export interface EmoteCatalog {
  /** Path of the avatar GLB, resolved against the API base. */
  avatar: string
  emotes: Emote[]
}

/** {"type":"emote"} on /ws: every client plays it. emoteId "idle" returns to idle (generated: wire.gen.ts). */
export type { Emote as EmoteMessage } from './wire.gen'
