// The app-wide keyboard shortcuts (state/shortcuts.ts): Ctrl/⌘+N a new chat,
// Ctrl/⌘+E the emote picker, Esc stops the reply being written (and what is being said), `?` the
// overlay that lists them. Renders nothing, and re-renders with nothing: it
// reads the chat state when a key is pressed.

import { isReplying } from '../state/chat'
import { useShortcuts } from '../state/useShortcuts'
import { useChat } from '../state/useChat'
import { useWisp } from '../state/wispContext'

interface Props {
  onToggleEmotes(): void
  onToggleHelp(): void
}

export function AppShortcuts({ onToggleEmotes, onToggleHelp }: Props) {
  const chat = useChat()
  const { voice } = useWisp()
  useShortcuts({
    'new-chat': () => chat.open(null),
    emotes: onToggleEmotes,
    help: onToggleHelp,
    // Esc with no reply streaming and nothing being said is left alone.
    stop: () => {
      if (!isReplying(chat.state) && !voice.speech.active()) return false
      chat.stop()
    },
  })
  return null
}
