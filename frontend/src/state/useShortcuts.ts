// The app-wide keyboard shortcuts (shortcuts.ts lists them): one listener in
// the capture phase for the Ctrl/⌘ combinations, so a focused field cannot
// swallow them and the browser's own meaning (Ctrl+E: search) never runs,
// and one after the page's own handlers for Esc and `?`, so an Esc that
// closed a dialog, cancelled a rename or an IME composition is not also a
// stop. Whether a dialog was open is read as the key goes down, before any
// handler closes it.
//
// A handler returns false when it did nothing (Esc with no reply streaming):
// the key is then left to the page.

import { useEffect, useRef } from 'react'
import {
  commandShortcut,
  hasOpenDialog,
  isMacPlatform,
  isTextField,
  plainShortcut,
  type KeyPlace,
  type ShortcutId,
} from './shortcuts'

export type ShortcutHandlers = Partial<Record<ShortcutId, () => boolean | void>>

export function useShortcuts(handlers: ShortcutHandlers): void {
  const current = useRef(handlers)
  current.current = handlers

  useEffect(() => {
    const mac = isMacPlatform()
    /** Where each key went down, as it was before any handler ran. */
    const places = new WeakMap<KeyboardEvent, KeyPlace>()
    const placeOf = (e: KeyboardEvent): KeyPlace => {
      const target = e.target instanceof Element ? e.target : null
      return {
        mac,
        inTerminal: target?.closest('.xterm') != null,
        typing: isTextField(target),
        dialogOpen: hasOpenDialog(document),
      }
    }
    const run = (e: KeyboardEvent, id: ShortcutId | null): void => {
      const handler = id === null ? undefined : current.current[id]
      if (handler === undefined) return
      if (e.repeat && id !== 'stop') {
        e.preventDefault()
        return
      }
      if (handler() === false) return
      e.preventDefault()
      e.stopPropagation()
    }
    const onCapture = (e: KeyboardEvent) => {
      const place = placeOf(e)
      places.set(e, place)
      run(e, commandShortcut(e, place))
    }
    const onBubble = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return
      run(e, plainShortcut(e, places.get(e) ?? placeOf(e)))
    }
    window.addEventListener('keydown', onCapture, true)
    window.addEventListener('keydown', onBubble)
    return () => {
      window.removeEventListener('keydown', onCapture, true)
      window.removeEventListener('keydown', onBubble)
    }
  }, [])
}
