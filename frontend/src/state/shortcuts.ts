// Every keyboard shortcut of the app in one list: what the `?` overlay shows,
// and which keydown is which shortcut. Pure: useShortcuts.ts listens.
//
// Ctrl/⌘+K (search) is listed here and handled by the search palette.
// Enter and Shift+Enter belong to the composer (Composer.tsx); they are listed
// so the overlay shows every key the app answers.

/** A shortcut the app-wide listener acts on. */
export type ShortcutId = 'new-chat' | 'search' | 'emotes' | 'stop' | 'help'

export interface ShortcutEntry {
  /** What the keys do, as the overlay says it. */
  label: string
  /** The keys as the overlay shows them, for macOS and for the others. */
  keys: { mac: string; other: string }
  /** Where the keys work, when not everywhere. */
  where?: string
  /** The app-wide listener's name for it (none: another part of the app handles the keys). */
  id?: ShortcutId
}

export const SHORTCUTS: readonly ShortcutEntry[] = [
  { id: 'new-chat', label: 'New chat', keys: { mac: '⌘N', other: 'Ctrl+N' } },
  { id: 'search', label: 'Search all conversations', keys: { mac: '⌘K', other: 'Ctrl+K' } },
  { id: 'emotes', label: 'Play an emote', keys: { mac: '⌘E', other: 'Ctrl+E' } },
  { id: 'stop', label: 'Stop the reply being written or spoken', keys: { mac: 'Esc', other: 'Esc' } },
  { id: 'help', label: 'Show these shortcuts', keys: { mac: '?', other: '?' }, where: 'outside text fields' },
  { label: 'Hold to speak a message', keys: { mac: 'Ctrl+Space', other: 'Ctrl+Space' }, where: 'when a transcription server is set' },
  { label: 'Send the message', keys: { mac: 'Enter', other: 'Enter' }, where: 'in the message box' },
  { label: 'New line', keys: { mac: 'Shift+Enter', other: 'Shift+Enter' }, where: 'in the message box' },
]

/** The keys of a shortcut on this platform ("Ctrl+E", "⌘E"). */
export function keysOf(id: ShortcutId, mac: boolean): string {
  const entry = SHORTCUTS.find((s) => s.id === id)
  if (entry === undefined) return ''
  return mac ? entry.keys.mac : entry.keys.other
}

export function isMacPlatform(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  const platform = nav.userAgentData?.platform ?? navigator.platform ?? ''
  return /mac|iphone|ipad/i.test(platform)
}

/** The parts of a keydown the shortcuts look at. */
export interface ShortcutKey {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
  /** An IME composition is open (its Esc cancels the composition). */
  isComposing?: boolean
  /** 229 while an IME handles the key. */
  keyCode?: number
}

/** Where the keydown happens. */
export interface KeyPlace {
  /** macOS: ⌘ combinations; elsewhere Ctrl. */
  mac: boolean
  /** Focus is in the xterm terminal view, whose program gets Ctrl keys and Esc. */
  inTerminal: boolean
  /** Focus is in a text field (input, textarea, contenteditable), where `?` is a character. */
  typing: boolean
  /** A dialog (a picker, a palette, the overlay, settings) is open: its Esc is its own. */
  dialogOpen: boolean
}

/**
 * The shortcut a combination with Ctrl (⌘ on macOS) is, else null. These are
 * listened for in the capture phase, so a focused field cannot swallow them.
 */
export function commandShortcut(e: ShortcutKey, place: KeyPlace): ShortcutId | null {
  if (e.altKey || e.shiftKey || e.isComposing === true || e.keyCode === 229) return null
  const command = place.mac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey
  // Off macOS, Ctrl keys in the terminal belong to its program (Ctrl+E: end of line).
  if (!command || (!place.mac && place.inTerminal)) return null
  switch (e.key.toLowerCase()) {
    // Not under an open dialog: a new chat or the emote picker would open behind it.
    case 'n':
      return place.dialogOpen ? null : 'new-chat'
    case 'k':
      return 'search'
    case 'e':
      return place.dialogOpen ? null : 'emotes'
    default:
      return null
  }
}

/**
 * The shortcut a plain key is (Esc, `?`), else null. These are listened for
 * after the page's own handlers: an Esc a dialog or field used is not a stop.
 */
export function plainShortcut(e: ShortcutKey, place: KeyPlace): ShortcutId | null {
  if (e.ctrlKey || e.metaKey || e.altKey) return null
  if (e.key === 'Escape') {
    if (e.isComposing === true || e.keyCode === 229) return null
    return place.inTerminal || place.dialogOpen ? null : 'stop'
  }
  if (e.key === '?') return place.typing || place.inTerminal ? null : 'help'
  return null
}

/** The parts of an element isTextField reads. */
export type FieldLike = Pick<Element, 'tagName' | 'getAttribute'> & { isContentEditable?: boolean }

/** Whether an element takes typed text (so `?` is a character there). */
export function isTextField(el: FieldLike | null): boolean {
  if (el === null) return false
  const tag = el.tagName.toLowerCase()
  if (tag === 'textarea' || tag === 'select') return true
  if (tag === 'input') {
    const type = (el.getAttribute('type') ?? 'text').toLowerCase()
    return !NON_TEXT_INPUTS.has(type)
  }
  return el.isContentEditable === true
}

const NON_TEXT_INPUTS = new Set(['button', 'checkbox', 'radio', 'submit', 'reset', 'range', 'color', 'file', 'image'])

/** A dialog is open in the document: an element with role dialog or alertdialog, aria-modal, or an open <dialog>. */
export function hasOpenDialog(doc: Pick<Document, 'querySelector'>): boolean {
  return doc.querySelector('[role="dialog"], [role="alertdialog"], [aria-modal="true"], dialog[open]') !== null
}
