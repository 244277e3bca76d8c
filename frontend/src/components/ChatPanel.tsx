import './ChatPanel.css'
import { useAppState } from '../state/WispProvider'
import { ChatView } from './ChatView'
import { ProviderSetup } from './ProviderSetup'

/** The middle column: the chat, or the provider form when the agent cannot respond (or the user asked for it). */
const sameCanRespond = (a: { canRespond: boolean } | null, b: { canRespond: boolean } | null) =>
  a === b || (a !== null && b !== null && a.canRespond === b.canRespond)

export function ChatPanel() {
  const apiReady = useAppState((s) => s.apiReady)
  const status = useAppState((s) => (s.status === null ? null : { canRespond: s.status.canRespond }), sameCanRespond)
  const providerSetupOpen = useAppState((s) => s.providerSetupOpen)
  let body
  if (!apiReady || status === null) {
    body = (
      <div className="chat-empty">
        <p className="muted">Waiting for the Wisp server…</p>
      </div>
    )
  } else if (!status.canRespond || providerSetupOpen) {
    body = <ProviderSetup canClose={status.canRespond} />
  } else {
    body = <ChatView />
  }
  return <main className="chat">{body}</main>
}
