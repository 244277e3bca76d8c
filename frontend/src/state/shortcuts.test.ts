import { describe, expect, it } from 'vitest'
import {
  SHORTCUTS,
  commandShortcut,
  isTextField,
  keysOf,
  plainShortcut,
  type FieldLike,
  type KeyPlace,
  type ShortcutKey,
} from './shortcuts'

const key = (k: Partial<ShortcutKey>): ShortcutKey => ({
  key: 'e',
  ctrlKey: false,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  ...k,
})
const linux: KeyPlace = { mac: false, inTerminal: false, typing: false, dialogOpen: false }
const mac: KeyPlace = { ...linux, mac: true }

describe('the list of shortcuts', () => {
  it('names every shortcut the listener knows, the search palette included, once', () => {
    const ids = SHORTCUTS.flatMap((s) => (s.id === undefined ? [] : [s.id]))
    expect(ids.sort()).toEqual(['emotes', 'help', 'new-chat', 'search', 'stop'])
    expect(new Set(SHORTCUTS.map((s) => s.label)).size).toBe(SHORTCUTS.length)
  })

  it('shows the keys of the platform', () => {
    expect(keysOf('new-chat', false)).toBe('Ctrl+N')
    expect(keysOf('new-chat', true)).toBe('⌘N')
    expect(keysOf('search', false)).toBe('Ctrl+K')
    expect(keysOf('emotes', true)).toBe('⌘E')
    expect(keysOf('stop', false)).toBe('Esc')
  })
})

describe('commandShortcut', () => {
  it('is Ctrl+<key> off macOS and ⌘<key> on macOS', () => {
    expect(commandShortcut(key({ ctrlKey: true }), linux)).toBe('emotes')
    expect(commandShortcut(key({ ctrlKey: true, key: 'E' }), linux)).toBe('emotes')
    expect(commandShortcut(key({ ctrlKey: true, key: 'n' }), linux)).toBe('new-chat')
    expect(commandShortcut(key({ ctrlKey: true, key: 'k' }), linux)).toBe('search')
    expect(commandShortcut(key({ metaKey: true }), linux)).toBeNull()
    expect(commandShortcut(key({ metaKey: true, key: 'n' }), mac)).toBe('new-chat')
    expect(commandShortcut(key({ ctrlKey: true, key: 'n' }), mac)).toBeNull()
  })

  it('leaves Ctrl keys to the program in the terminal, but not ⌘ ones', () => {
    const term = { ...linux, inTerminal: true }
    expect(commandShortcut(key({ ctrlKey: true }), term)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, key: 'n' }), term)).toBeNull()
    expect(commandShortcut(key({ metaKey: true }), { ...mac, inTerminal: true })).toBe('emotes')
  })

  it('works while typing (the composer has focus)', () => {
    expect(commandShortcut(key({ ctrlKey: true, key: 'n' }), { ...linux, typing: true })).toBe('new-chat')
  })

  it('opens no new chat or emote picker under an open dialog, and leaves keys of an IME composition alone', () => {
    const dialog = { ...linux, dialogOpen: true }
    expect(commandShortcut(key({ ctrlKey: true, key: 'n' }), dialog)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true }), dialog)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, key: 'k' }), dialog)).toBe('search')
    expect(commandShortcut(key({ ctrlKey: true, key: 'n', isComposing: true }), linux)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, key: 'n', keyCode: 229 }), linux)).toBeNull()
  })

  it('ignores other keys and extra modifiers', () => {
    expect(commandShortcut(key({ ctrlKey: true, key: 'r' }), linux)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, shiftKey: true }), linux)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, altKey: true }), linux)).toBeNull()
    expect(commandShortcut(key({ ctrlKey: true, metaKey: true }), linux)).toBeNull()
    expect(commandShortcut(key({}), linux)).toBeNull()
  })
})

describe('plainShortcut', () => {
  const esc = key({ key: 'Escape', keyCode: 27 })
  const help = key({ key: '?', shiftKey: true })

  it('is a stop for Esc, wherever the focus is', () => {
    expect(plainShortcut(esc, linux)).toBe('stop')
    expect(plainShortcut(esc, { ...linux, typing: true })).toBe('stop')
  })

  it('leaves Esc to an open dialog, the terminal and an IME composition', () => {
    expect(plainShortcut(esc, { ...linux, dialogOpen: true })).toBeNull()
    expect(plainShortcut(esc, { ...linux, inTerminal: true })).toBeNull()
    expect(plainShortcut({ ...esc, isComposing: true }, linux)).toBeNull()
    expect(plainShortcut({ ...esc, keyCode: 229 }, linux)).toBeNull()
    expect(plainShortcut({ ...esc, ctrlKey: true }, linux)).toBeNull()
  })

  it('is the overlay for ?, but not in a text field or the terminal', () => {
    expect(plainShortcut(help, linux)).toBe('help')
    expect(plainShortcut(help, { ...linux, dialogOpen: true })).toBe('help')
    expect(plainShortcut(help, { ...linux, typing: true })).toBeNull()
    expect(plainShortcut(help, { ...linux, inTerminal: true })).toBeNull()
    expect(plainShortcut({ ...help, ctrlKey: true }, linux)).toBeNull()
    expect(plainShortcut(key({ key: '/' }), linux)).toBeNull()
  })
})

describe('isTextField', () => {
  const el = (tagName: string, attrs: Record<string, string> = {}, isContentEditable = false): FieldLike => ({
    tagName,
    getAttribute: (name: string) => attrs[name] ?? null,
    isContentEditable,
  })

  it('knows text fields from other controls', () => {
    expect(isTextField(el('TEXTAREA'))).toBe(true)
    expect(isTextField(el('INPUT'))).toBe(true)
    expect(isTextField(el('INPUT', { type: 'search' }))).toBe(true)
    expect(isTextField(el('INPUT', { type: 'checkbox' }))).toBe(false)
    expect(isTextField(el('BUTTON'))).toBe(false)
    expect(isTextField(el('DIV', {}, true))).toBe(true)
    expect(isTextField(el('DIV'))).toBe(false)
    expect(isTextField(null)).toBe(false)
  })
})
