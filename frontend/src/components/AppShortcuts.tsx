// The app-wide keyboard shortcuts (state/shortcuts.ts): Ctrl/⌘+N a new chat,
// Ctrl/⌘+E the emote picker, Esc stops the reply being written, `?` the
// overlay that lists them. Renders nothing; it reads the chat state here so
// that the app around it does not re-render with every change.

import { useRef } from 'react'
import { isReplying } from '../state/chat'
import { useShortcuts } from '../state/useShortcuts'
import { useWisp } from '../state/WispProvider'

interface Props {
  onToggleEmotes(): void
  onToggleHelp(): void
}

export function AppShortcuts({ onToggleEmotes, onToggleHelp }: Props) {
  const { chat, state } = useWisp()
  const replying = useRef(false)
  replying.current = isReplying(state.chat)
  useShortcuts({
    'new-chat': () => chat.open(null),
    emotes: onToggleEmotes,
    help: onToggleHelp,
    // Esc with no reply streaming is left alone.
    stop: () => {
      if (!replying.current) return false
      chat.stop()
    },
  })
  return null
}
