import { useState } from 'react'
import { Header } from './components/Header'
import { Notices } from './components/Notices'
import { Sidebar } from './components/Sidebar'
import { ChatPanel } from './components/ChatPanel'
import { ActivityPanel } from './components/ActivityPanel'
import { TokenForm } from './components/TokenForm'

export function App() {
  // Narrow windows hide the activity column; the header's Activity button shows it over the chat.
  const [activityOpen, setActivityOpen] = useState(false)
  return (
    <div className={`app${activityOpen ? ' activity-open' : ''}`}>
      <Header activityOpen={activityOpen} onToggleActivity={() => setActivityOpen((o) => !o)} />
      <Notices />
      <div className="columns">
        <Sidebar />
        <ChatPanel />
        <ActivityPanel />
      </div>
      <TokenForm />
    </div>
  )
}
