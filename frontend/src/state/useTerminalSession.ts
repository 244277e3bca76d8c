// One TerminalSession per mounted terminal panel, wired to the page's API
// client, connection state and /ws terminal traffic.

import { useEffect, useState } from 'react'
import type { ApiClient, ConnectionState } from '../api'
import type { TerminalBridge } from './terminalBridge'
import { useStore } from './store'
import { TerminalSession, type SessionSnapshot, type SessionStorage } from './terminalSession'

function safeSessionStorage(): SessionStorage | undefined {
  try {
    return window.sessionStorage
  } catch {
    return undefined
  }
}

export function useTerminalSession(
  api: ApiClient | null,
  connection: ConnectionState,
  bridge: TerminalBridge,
): [TerminalSession, SessionSnapshot] {
  const [session] = useState(() => new TerminalSession({ bridge, storage: safeSessionStorage() }))

  useEffect(() => {
    session.setBridge(bridge)
    const offs = [bridge.onOutput((ev) => session.onOutput(ev)), bridge.onServerError((m) => session.onServerError(m))]
    return () => {
      for (const off of offs) off()
    }
  }, [session, bridge])

  useEffect(() => session.setApi(api), [session, api])
  useEffect(() => session.connectionChanged(connection), [session, connection])
  useEffect(() => () => session.dispose(), [session])

  const snapshot = useStore(session)
  return [session, snapshot]
}
