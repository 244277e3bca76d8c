import { useCallback, useState } from 'react'
import { Header } from './components/Header'
import { Notices } from './components/Notices'
import { Sidebar } from './components/Sidebar'
import { ChatPanel } from './components/ChatPanel'
import { ActivityPanel } from './components/ActivityPanel'
import { RemindersPanel } from './components/RemindersPanel'
import { AvatarPanel } from './components/AvatarPanel'
import { EmotePicker } from './components/EmotePicker'
import { TokenForm } from './components/TokenForm'
import { TerminalDock } from './components/TerminalDock'
import { SettingsPanel } from './components/SettingsPanel'
import { safeLocalStorage } from './api/connection'
import { AppShortcuts } from './components/AppShortcuts'
import { ShortcutsOverlay } from './components/ShortcutsOverlay'
import { TerminalOpenerContext, nextRunRequest, type TerminalRunRequest } from './state/terminalOpener'

export const TERMINAL_OPEN_KEY = 'wisp.terminal.open'
export const AVATAR_OPEN_KEY = 'wisp.avatar.open'

export function App() {
  // Narrow windows hide the side column (avatar, reminders, activity); the header's Activity button shows it over the chat.
  const [activityOpen, setActivityOpen] = useState(false)
  const [terminalOpen, setTerminalFlag] = useStoredFlag(TERMINAL_OPEN_KEY, false)
  const [avatarOpen, setAvatarOpen] = useStoredFlag(AVATAR_OPEN_KEY, true)
  const [pickerOpen, setPickerOpen] = useState(false)
  const [settingsOpen, setSettingsOpen] = useState(false)
  const closeSettings = useCallback(() => setSettingsOpen(false), [])
  const togglePicker = useCallback(() => setPickerOpen((o) => !o), [])
  const [shortcutsOpen, setShortcutsOpen] = useState(false)
  const toggleShortcuts = useCallback(() => setShortcutsOpen((o) => !o), [])
  const closeShortcuts = useCallback(() => setShortcutsOpen(false), [])
  // "Show in Terminal": the run the panel is asked to focus, forgotten when it closes.
  const [runRequest, setRunRequest] = useState<TerminalRunRequest | null>(null)
  const setTerminalOpen = useCallback(
    (open: boolean) => {
      if (!open) setRunRequest(null)
      setTerminalFlag(open)
    },
    [setTerminalFlag],
  )
  const showTerminalRun = useCallback(
    (runId: string) => {
      setTerminalFlag(true)
      setRunRequest((prev) => nextRunRequest(prev, runId))
    },
    [setTerminalFlag],
  )
  return (
    <TerminalOpenerContext.Provider value={showTerminalRun}>
      <div className={`app${activityOpen ? ' activity-open' : ''}${terminalOpen ? ' terminal-open' : ''}`}>
        <Header
          activityOpen={activityOpen}
          onToggleActivity={() => setActivityOpen((o) => !o)}
          terminalOpen={terminalOpen}
          onToggleTerminal={() => setTerminalOpen(!terminalOpen)}
          avatarOpen={avatarOpen}
          onToggleAvatar={() => setAvatarOpen(!avatarOpen)}
          emotesOpen={pickerOpen}
          onToggleEmotes={togglePicker}
          settingsOpen={settingsOpen}
          onToggleSettings={() => setSettingsOpen((o) => !o)}
        />
        <Notices />
        <div className="columns">
          <Sidebar />
          <div className="main-column">
            <ChatPanel />
            {terminalOpen ? <TerminalDock onClose={() => setTerminalOpen(false)} focusRun={runRequest} /> : null}
          </div>
          <div className="side-column">
            {avatarOpen ? <AvatarPanel /> : null}
            <RemindersPanel />
            <ActivityPanel />
          </div>
          {/* Over the columns only: the restart banner above stays in reach. */}
          {settingsOpen ? <SettingsPanel onClose={closeSettings} /> : null}
        </div>
        {pickerOpen ? <EmotePicker onClose={() => setPickerOpen(false)} /> : null}
        {shortcutsOpen ? <ShortcutsOverlay onClose={closeShortcuts} /> : null}
        <AppShortcuts onToggleEmotes={togglePicker} onToggleHelp={toggleShortcuts} />
        <TokenForm />
      </div>
    </TerminalOpenerContext.Provider>
  )
}

/** A panel's open/closed choice, remembered in localStorage ("1"/"0"). */
function useStoredFlag(key: string, byDefault: boolean): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => {
    const stored = safeLocalStorage()?.getItem(key)
    return stored === '1' ? true : stored === '0' ? false : byDefault
  })
  const set = useCallback(
    (next: boolean) => {
      setOpen(next)
      try {
        safeLocalStorage()?.setItem(key, next ? '1' : '0')
      } catch {
        // storage full or blocked: the choice lasts for this page only
      }
    },
    [key],
  )
  return [open, set]
}
