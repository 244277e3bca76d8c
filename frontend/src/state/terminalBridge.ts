// What the terminal panel gets from WispProvider: the page's /ws traffic for
// terminal runs, without holding the socket itself (the socket is created
// after the connection is resolved and may be replaced; subscriptions here
// outlive that).

import type { TerminalOutputMessage, Unsubscribe } from '../api'

export interface TerminalBridge {
  /** This tab's client id (X-Client-Id and /ws?clientId=). */
  clientId: string
  /** The terminal token the desktop window got from GetConnection() ('' when none). */
  desktopToken: string
  onOutput(fn: (msg: TerminalOutputMessage) => void): Unsubscribe
  /** {"type":"error"} frames of the socket (the server's answer to a bad terminal frame). */
  onServerError(fn: (message: string) => void): Unsubscribe
  sendInput(runId: string, data: string, terminalToken?: string): void
  sendResize(runId: string, cols: number, rows: number): void
}
