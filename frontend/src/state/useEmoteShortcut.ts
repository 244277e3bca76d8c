// Ctrl+E (⌘E on macOS) toggles the emote picker from anywhere in the app.
// Listened for in the capture phase, so a focused field cannot swallow it and
// the browser's own Ctrl+E (search) never runs, except in the xterm terminal
// view, where Ctrl+E belongs to the running program (end of line).

import { useEffect, useRef } from 'react'
import { isEmoteShortcut } from './emotePicker'

export function isMacPlatform(): boolean {
  const nav = navigator as Navigator & { userAgentData?: { platform?: string } }
  const platform = nav.userAgentData?.platform ?? navigator.platform ?? ''
  return /mac|iphone|ipad/i.test(platform)
}

export function useEmoteShortcut(onToggle: () => void): void {
  const toggle = useRef(onToggle)
  toggle.current = onToggle

  useEffect(() => {
    const mac = isMacPlatform()
    const onKeyDown = (e: KeyboardEvent) => {
      const inTerminal = e.target instanceof Element && e.target.closest('.xterm') !== null
      if (!isEmoteShortcut(e, { mac, inTerminal })) return
      e.preventDefault()
      e.stopPropagation()
      if (!e.repeat) toggle.current()
    }
    window.addEventListener('keydown', onKeyDown, true)
    return () => window.removeEventListener('keydown', onKeyDown, true)
  }, [])
}
