import { describe, expect, it } from 'vitest'
import type { Emote } from '../api'
import {
  compareCategories,
  emoteLabel,
  filterEmotes,
  groupEmotes,
  moveActive,
  preferredIndex,
  shownOrder,
} from './emotePicker'

function emote(id: string, category: string, extra: Partial<Emote> = {}): Emote {
  return {
    id,
    name: id.charAt(0).toUpperCase() + id.slice(1),
    description: '',
    category,
    glbPath: `/emotes/${id}.glb`,
    duration: 2,
    loop: false,
    source: 'builtin',
    status: '',
    ...extra,
  }
}

const catalog = [
  emote('idle', 'idle', { loop: true }),
  emote('punch', 'combat'),
  emote('zumba', 'party', { source: 'user' }),
  emote('wave', 'greeting', { description: 'Waves hello' }),
  emote('happy', 'emotion'),
  emote('bow', 'greeting'),
  emote('walk', 'movement', { loop: true }),
  emote('disco', 'dance', { loop: true }),
  emote('salute', 'army', { source: 'user' }),
]

describe('groupEmotes', () => {
  it('orders built-in categories as the contract does, then the others alphabetically', () => {
    expect(groupEmotes(catalog).map((g) => g.label)).toEqual([
      'Greeting',
      'Emotion',
      'Dance',
      'Combat',
      'Idle',
      'Movement',
      'Army',
      'Party',
    ])
  })

  it("keeps the server's order inside a category, and shows options in group order", () => {
    const groups = groupEmotes(catalog)
    expect(groups[0]?.emotes.map((e) => e.id)).toEqual(['wave', 'bow'])
    expect(shownOrder(groups).map((e) => e.id).slice(0, 4)).toEqual(['wave', 'bow', 'happy', 'disco'])
  })

  it('compares unknown categories after all built-ins', () => {
    expect(compareCategories('movement', 'aaa')).toBeLessThan(0)
    expect(compareCategories('aaa', 'greeting')).toBeGreaterThan(0)
    expect(compareCategories('b', 'a')).toBeGreaterThan(0)
  })
})

describe('filterEmotes', () => {
  it('matches every word against id, name, description and category, ignoring case', () => {
    expect(filterEmotes(catalog, 'WAVE').map((e) => e.id)).toEqual(['wave'])
    expect(filterEmotes(catalog, 'greeting hello').map((e) => e.id)).toEqual(['wave'])
    expect(filterEmotes(catalog, 'greet').map((e) => e.id)).toEqual(['wave', 'bow'])
    expect(filterEmotes(catalog, '  ')).toHaveLength(catalog.length)
    expect(filterEmotes(catalog, 'nothing-like-this')).toEqual([])
  })
})

describe('preferredIndex', () => {
  const options = shownOrder(groupEmotes(catalog))
  it('prefers an exact, then a prefix match', () => {
    expect(options[preferredIndex(options, 'walk')]?.id).toBe('walk')
    expect(options[preferredIndex(options, 'Sal')]?.id).toBe('salute')
    expect(preferredIndex(options, '')).toBe(0)
    expect(preferredIndex(options, 'hello')).toBe(0)
    expect(preferredIndex([], 'x')).toBe(-1)
  })
})

describe('moveActive', () => {
  it('moves and wraps with the arrows, jumps with Home/End/PageUp/PageDown', () => {
    expect(moveActive(0, 'ArrowDown', 3)).toBe(1)
    expect(moveActive(2, 'ArrowDown', 3)).toBe(0)
    expect(moveActive(0, 'ArrowUp', 3)).toBe(2)
    expect(moveActive(-1, 'ArrowDown', 3)).toBe(0)
    expect(moveActive(1, 'Home', 3)).toBe(0)
    expect(moveActive(0, 'End', 3)).toBe(2)
    expect(moveActive(0, 'PageDown', 12)).toBe(5)
    expect(moveActive(11, 'PageDown', 12)).toBe(11)
    expect(moveActive(3, 'PageUp', 12)).toBe(0)
    expect(moveActive(0, 'a', 3)).toBeNull()
    expect(moveActive(0, 'ArrowDown', 0)).toBeNull()
  })
})

describe('emoteLabel', () => {
  it("uses the catalog's name, else the id in words", () => {
    expect(emoteLabel('wave', catalog)).toBe('Wave')
    expect(emoteLabel('happy_dance', catalog)).toBe('Happy dance')
    expect(emoteLabel('x-y', null)).toBe('X y')
  })
})
