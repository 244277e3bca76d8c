// The emote picker's logic, kept apart from React: grouping by category in
// the contract's order, filtering and keyboard movement. Its Ctrl+E / ⌘E
// shortcut is in shortcuts.ts with the others.

import { BUILTIN_EMOTE_CATEGORIES, type Emote } from '../api'

export interface EmoteGroup {
  category: string
  /** "Greeting" */
  label: string
  emotes: Emote[]
}

const BUILTIN_RANK = new Map<string, number>(BUILTIN_EMOTE_CATEGORIES.map((c, i) => [c, i]))

/** Built-in categories in contract order, then the others alphabetically. */
export function compareCategories(a: string, b: string): number {
  const ra = BUILTIN_RANK.get(a)
  const rb = BUILTIN_RANK.get(b)
  if (ra !== undefined && rb !== undefined) return ra - rb
  if (ra !== undefined) return -1
  if (rb !== undefined) return 1
  return a < b ? -1 : a > b ? 1 : 0
}

export function categoryLabel(category: string): string {
  return category === '' ? 'Other' : category.charAt(0).toUpperCase() + category.slice(1)
}

/** Emotes whose id, name, description or category contain every word of the query. */
export function filterEmotes(emotes: readonly Emote[], query: string): Emote[] {
  const words = query.toLowerCase().split(/\s+/).filter((w) => w !== '')
  if (words.length === 0) return [...emotes]
  return emotes.filter((e) => {
    const text = `${e.id} ${e.name} ${e.description} ${e.category}`.toLowerCase()
    return words.every((w) => text.includes(w))
  })
}

/** Groups by category (see compareCategories); the server's order is kept inside a group. */
export function groupEmotes(emotes: readonly Emote[]): EmoteGroup[] {
  const byCategory = new Map<string, Emote[]>()
  for (const e of emotes) {
    const list = byCategory.get(e.category)
    if (list === undefined) byCategory.set(e.category, [e])
    else list.push(e)
  }
  return [...byCategory.keys()]
    .sort(compareCategories)
    .map((category) => ({ category, label: categoryLabel(category), emotes: byCategory.get(category) ?? [] }))
}

/** The options in the order they are shown, for keyboard movement. */
export function shownOrder(groups: readonly EmoteGroup[]): Emote[] {
  return groups.flatMap((g) => g.emotes)
}

/**
 * The option to preselect for a query: an exact id or name match, else the
 * first whose id or name starts with the query, else the first one.
 * -1 when there are no options.
 */
export function preferredIndex(options: readonly Emote[], query: string): number {
  if (options.length === 0) return -1
  const q = query.trim().toLowerCase()
  if (q === '') return 0
  const exact = options.findIndex((e) => e.id.toLowerCase() === q || e.name.toLowerCase() === q)
  if (exact !== -1) return exact
  const prefix = options.findIndex((e) => e.id.toLowerCase().startsWith(q) || e.name.toLowerCase().startsWith(q))
  return prefix === -1 ? 0 : prefix
}

/** Page size for PageUp/PageDown. */
const PAGE = 5

/** The new active index after a key, or null when the key does not move. Up/Down wrap around. */
export function moveActive(index: number, key: string, count: number): number | null {
  if (count === 0) return null
  const last = count - 1
  const from = index < 0 ? -1 : Math.min(index, last)
  switch (key) {
    case 'ArrowDown':
      return from >= last ? 0 : from + 1
    case 'ArrowUp':
      return from <= 0 ? last : from - 1
    case 'Home':
      return 0
    case 'End':
      return last
    case 'PageDown':
      return Math.min(last, Math.max(from, 0) + PAGE)
    case 'PageUp':
      return Math.max(0, from - PAGE)
    default:
      return null
  }
}

/** The caption for an emote id: its catalog name, else the id in words ("happy_dance" → "Happy dance"). */
export function emoteLabel(id: string, emotes: readonly Emote[] | null): string {
  const known = emotes?.find((e) => e.id === id)
  if (known !== undefined) return known.name
  const words = id.replace(/[-_]+/g, ' ').trim()
  return words === '' ? id : words.charAt(0).toUpperCase() + words.slice(1)
}
