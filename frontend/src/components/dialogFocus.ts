// Focus in the app's modal dialogs (the search palette, the shortcuts overlay,
// the emote picker, settings): focus goes back where it was when one closes,
// Tab stays inside, and focus that would fall out of it (a focused button
// that went away, a click on its padding) comes back to its home element, so
// its keys keep working.

import { useEffect, useState, type KeyboardEvent as ReactKeyboardEvent, type RefObject } from 'react'

/** Gives focus back to what had it before the dialog opened. */
export function useRestoreFocus(): void {
  const [before] = useState(() => (document.activeElement instanceof HTMLElement ? document.activeElement : null))
  useEffect(() => () => before?.focus({ preventScroll: true }), [before])
}

/** Keeps Tab inside the dialog root. */
export function trapTab(e: ReactKeyboardEvent | KeyboardEvent, root: HTMLElement | null): void {
  if (root === null) return
  const focusable = [...root.querySelectorAll<HTMLElement>('input, textarea, select, button:not([disabled]):not([tabindex="-1"]), a[href]')]
  const first = focusable[0]
  const last = focusable[focusable.length - 1]
  if (first === undefined || last === undefined) return
  const inside = root.contains(document.activeElement)
  if (e.shiftKey && (document.activeElement === first || !inside)) {
    e.preventDefault()
    last.focus()
  } else if (!e.shiftKey && (document.activeElement === last || !inside)) {
    e.preventDefault()
    first.focus()
  }
}

/**
 * Brings focus back to home when it leaves root for nowhere (the body): the
 * element that had it was removed or a click landed on a part of the dialog
 * that takes no focus. Focus moving to another element inside root, or to
 * another window, is left alone.
 */
export function useKeepFocus(root: RefObject<HTMLElement | null>, home: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const el = root.current
    if (el === null) return
    let frame = 0
    const onFocusOut = (e: FocusEvent) => {
      if (e.relatedTarget instanceof Node && el.contains(e.relatedTarget)) return
      cancelAnimationFrame(frame)
      frame = requestAnimationFrame(() => {
        const now = document.activeElement
        if (document.hasFocus() && (now === null || now === document.body) && el.isConnected) {
          home.current?.focus({ preventScroll: true })
        }
      })
    }
    el.addEventListener('focusout', onFocusOut)
    return () => {
      cancelAnimationFrame(frame)
      el.removeEventListener('focusout', onFocusOut)
    }
  }, [root, home])
}
