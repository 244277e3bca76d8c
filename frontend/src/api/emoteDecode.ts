// Runtime checks for the emote API's JSON (emoteTypes.ts). An emote without
// its id, name or clip path is rejected (null); secondary fields of the wrong
// type fall back to neutral defaults. Paths must be root-relative so a
// catalog can never point the loader at another host.

import { isBoolean, isNumber, isObject, isString } from './guards'
import type { JsonObject } from './types'
import type { Emote, EmoteCatalog, EmoteMessage } from './emoteTypes'

/** "/emotes/wave.glb": one leading slash, not a protocol-relative "//host". */
export function isRootPath(v: unknown): v is string {
  return isString(v) && v.startsWith('/') && !v.startsWith('//') && !v.includes('\\')
}

const isId = (v: unknown): v is string => isString(v) && v.trim() !== ''
const seconds = (v: unknown): number => (isNumber(v) && v >= 0 ? v : 0)

export function decodeEmote(v: unknown): Emote | null {
  if (!isObject(v)) return null
  const { id, name, glbPath } = v
  if (!isId(id) || !isString(name) || !isRootPath(glbPath)) return null
  return {
    id,
    name: name.trim() === '' ? id : name,
    description: isString(v.description) ? v.description : '',
    category: isString(v.category) && v.category.trim() !== '' ? v.category.trim().toLowerCase() : 'other',
    glbPath,
    duration: seconds(v.duration),
    loop: isBoolean(v.loop) ? v.loop : false,
    source: v.source === 'builtin' ? 'builtin' : 'user',
    status: isString(v.status) ? v.status : '',
  }
}

/** The catalog; emotes that do not decode are left out rather than failing the whole list. */
export function decodeEmoteCatalog(v: unknown): EmoteCatalog | null {
  if (!isObject(v) || !isRootPath(v.avatar)) return null
  if (!Array.isArray(v.emotes)) return null
  const emotes: Emote[] = []
  const seen = new Set<string>()
  for (const item of v.emotes) {
    const emote = decodeEmote(item)
    if (emote === null || seen.has(emote.id)) continue
    seen.add(emote.id)
    emotes.push(emote)
  }
  return { avatar: v.avatar, emotes }
}

/** An emote frame (its "type" already checked by the caller or not). */
export function decodeEmoteMessage(v: JsonObject): EmoteMessage | null {
  const { emoteId, glbPath } = v
  if (!isId(emoteId) || !isRootPath(glbPath)) return null
  return {
    type: 'emote',
    emoteId,
    glbPath,
    duration: seconds(v.duration),
    loop: isBoolean(v.loop) ? v.loop : false,
  }
}
