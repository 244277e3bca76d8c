import { useCallback, useState } from 'react'
import { Header } from './components/Header'
import { Notices } from './components/Notices'
import { Sidebar } from './components/Sidebar'
import { ChatPanel } from './components/ChatPanel'
import { ActivityPanel } from './components/ActivityPanel'
import { TokenForm } from './components/TokenForm'
import { TerminalDock } from './components/TerminalDock'
import { safeLocalStorage } from './api/connection'

export const TERMINAL_OPEN_KEY = 'wisp.terminal.open'

export function App() {
  // Narrow windows hide the activity column; the header's Activity button shows it over the chat.
  const [activityOpen, setActivityOpen] = useState(false)
  const [terminalOpen, setTerminalOpen] = useTerminalOpen()
  return (
    <div className={`app${activityOpen ? ' activity-open' : ''}${terminalOpen ? ' terminal-open' : ''}`}>
      <Header
        activityOpen={activityOpen}
        onToggleActivity={() => setActivityOpen((o) => !o)}
        terminalOpen={terminalOpen}
        onToggleTerminal={() => setTerminalOpen(!terminalOpen)}
      />
      <Notices />
      <div className="columns">
        <Sidebar />
        <div className="main-column">
          <ChatPanel />
          {terminalOpen ? <TerminalDock onClose={() => setTerminalOpen(false)} /> : null}
        </div>
        <ActivityPanel />
      </div>
      <TokenForm />
    </div>
  )
}

/** Whether the terminal dock is open, remembered in localStorage. */
function useTerminalOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => safeLocalStorage()?.getItem(TERMINAL_OPEN_KEY) === '1')
  const set = useCallback((next: boolean) => {
    setOpen(next)
    try {
      safeLocalStorage()?.setItem(TERMINAL_OPEN_KEY, next ? '1' : '0')
    } catch {
      // storage full or blocked: the choice lasts for this page only
    }
  }, [])
  return [open, set]
}
