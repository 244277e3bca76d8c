// The push-to-talk shortcut: hold Ctrl+Space (on macOS too, where ⌘Space is
// Spotlight) to record, release to stop and transcribe. Listened for in the
// capture phase so a focused text field does not type a space; the key's
// auto-repeat is ignored, and losing the window's focus while held stops too.

/** The parts of a key event the shortcut looks at. */
export interface TalkKey {
  code: string
  key: string
  ctrlKey: boolean
  metaKey: boolean
  altKey: boolean
  shiftKey: boolean
  repeat: boolean
}

export const PUSH_TO_TALK_KEYS = 'Ctrl+Space'

/** The keydown that starts a take (the first, not a repeat). */
export function isTalkDown(e: TalkKey): boolean {
  return e.code === 'Space' && e.ctrlKey && !e.metaKey && !e.altKey && !e.shiftKey
}

/** The keyup that ends the take held: Space or Control let go. */
export function isTalkUp(e: Pick<TalkKey, 'code' | 'key'>): boolean {
  return e.code === 'Space' || e.key === 'Control'
}

/** Whether an event's target is in the xterm terminal view. */
function inTerminal(target: EventTarget | null): boolean {
  const el = target as { closest?: (selector: string) => unknown } | null
  return typeof el?.closest === 'function' && el.closest('.xterm') != null
}

export interface TalkTarget {
  start(): void
  stop(): void
  /** Off while the mic cannot be used (not set up) or is on hands-free. */
  usable(): boolean
}

/** Listens on win for the shortcut; returns the function that stops listening. */
export function listenPushToTalk(win: Pick<Window, 'addEventListener' | 'removeEventListener'>, target: TalkTarget): () => void {
  let held = false
  const down = (e: KeyboardEvent) => {
    // Unused (no transcription server, hands-free on) or in the terminal, whose program
    // owns Ctrl+Space (a NUL: Emacs' set-mark), the keys go where they were going.
    if (!isTalkDown(e) || inTerminal(e.target) || !target.usable()) return
    e.preventDefault()
    if (e.repeat || held) return
    held = true
    target.start()
  }
  const release = () => {
    if (!held) return
    held = false
    target.stop()
  }
  const up = (e: KeyboardEvent) => {
    if (!held || !isTalkUp(e)) return
    e.preventDefault()
    release()
  }
  const capture = { capture: true }
  win.addEventListener('keydown', down, capture)
  win.addEventListener('keyup', up, capture)
  win.addEventListener('blur', release)
  return () => {
    win.removeEventListener('keydown', down, capture)
    win.removeEventListener('keyup', up, capture)
    win.removeEventListener('blur', release)
  }
}
