import { useWisp } from '../state/WispProvider'
import { ChatView } from './ChatView'
import { ProviderSetup } from './ProviderSetup'

/** The middle column: the chat, or the provider form when the agent cannot respond (or the user asked for it). */
export function ChatPanel() {
  const { state } = useWisp()
  const { status, apiReady, providerSetupOpen } = state
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
