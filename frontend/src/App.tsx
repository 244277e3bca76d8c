import { Header } from './components/Header'
import { Notices } from './components/Notices'
import { Sidebar } from './components/Sidebar'
import { ChatPanel } from './components/ChatPanel'
import { ActivityPanel } from './components/ActivityPanel'
import { TokenForm } from './components/TokenForm'

export function App() {
  return (
    <div className="app">
      <Header />
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
