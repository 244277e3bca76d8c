// Renders the whole app (WispProvider + App) into the fake document, against
// the fake server and sockets, with animation frames the test runs by hand.
// Import react-dom and the app only through mountApp: they must load after
// the fake document is installed.

import type { Clock } from '../api'
import type { ChatActions } from './useChat'
import type { MessageFocus } from './messageFocus'
import type { ReplyStore } from './replyStore'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from './fakeDom.test-util'
import { BASE_URL, FakeServer, fakeSockets, type FakeSocket } from './fakeServer.test-util'
import { ManualFrames } from './frames.test-util'

/** The socket's reconnect timers: they fire when the test says so. */
export class ManualClock implements Clock {
  private timers: { fn: () => void; live: boolean }[] = []
  after(_ms: number, fn: () => void) {
    const t = { fn, live: true }
    this.timers.push(t)
    return () => {
      t.live = false
    }
  }
  /** Fires every timer waiting now. */
  fire(): void {
    const due = this.timers.filter((t) => t.live)
    this.timers = []
    for (const t of due) t.fn()
  }
}

export interface MountedApp {
  browser: FakeBrowser
  server: FakeServer
  sockets: FakeSocket[]
  socketClock: ManualClock
  frames: ManualFrames
  /** The page's chat actions and reply store, as the app's components see them. */
  chat(): ChatActions
  replies(): ReplyStore
  /** The page's MessageFocus (a search result asks it for a message). */
  focus(): MessageFocus
  /** Runs fn inside React's act and lets every promise it started settle. */
  act(fn?: () => void | Promise<void>): Promise<void>
  /** Settles pending work until cond holds (it fails after many rounds in vain). */
  until(cond: () => boolean, what: string): Promise<void>
  root: FakeElement
  unmount(): Promise<void>
}

/** A macrotask: every promise chain started before it has run as far as it can. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

export async function mountApp(server: FakeServer, opts: { hash?: string } = {}): Promise<MountedApp> {
  const browser = installFakeBrowser(`${BASE_URL}/${opts.hash ?? ''}`)
  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const { WispProvider, useWisp } = await import('./WispProvider')
  const { App } = await import('../App')
  const { sockets, createSocket } = fakeSockets()
  const frames = new ManualFrames()
  const socketClock = new ManualClock()

  let chat: ChatActions | null = null
  let replies: ReplyStore | null = null
  let focus: MessageFocus | null = null
  /** Hands the test what the app's components get from the provider. */
  function Probe() {
    chat = useWisp().chat
    replies = useWisp().replies
    focus = useWisp().messageFocus
    return null
  }

  const act = async (fn: () => void | Promise<void> = () => undefined) => {
    await React.act(async () => {
      await fn()
      await turn()
    })
  }
  const until = async (cond: () => boolean, what: string) => {
    for (let i = 0; i < 200; i++) {
      if (cond()) return
      await act()
    }
    throw new Error(`gave up waiting for ${what}`)
  }

  const root = createRoot(browser.container as unknown as Element)
  await act(() =>
    root.render(
      React.createElement(
        WispProvider,
        {
          resolve: async () => ({ mode: 'browser' as const, baseURL: BASE_URL, wsURL: 'ws://wisp.test/ws', token: '' }),
          createSocket,
          socketClock,
          fetch: server.fetch,
          frames: frames.schedule,
          children: [React.createElement(App, { key: 'app' }), React.createElement(Probe, { key: 'probe' })],
        },
      ),
    ),
  )
  return {
    browser,
    server,
    sockets,
    socketClock,
    frames,
    chat: () => {
      if (chat === null) throw new Error('not rendered')
      return chat
    },
    replies: () => {
      if (replies === null) throw new Error('not rendered')
      return replies
    },
    focus: () => {
      if (focus === null) throw new Error('not rendered')
      return focus
    },
    act,
    until,
    root: browser.container,
    unmount: async () => {
      await act(() => root.unmount())
      browser.uninstall()
    },
  }
}

/** The socket's first frame: the server's status, which makes a connection without a token active. */
export const statusFrame = (server: FakeServer) => ({ type: 'status', ...server.status })

/** The message bubbles on the page, as the DOM shows them. */
export function bubbles(app: MountedApp): { role: string | null; status: string | null; text: string }[] {
  return app.root.byTestId('message').map((el) => ({
    role: el.getAttribute('data-role'),
    status: el.getAttribute('data-status'),
    text: el.byTestId('message-text')[0]?.textContent ?? '',
  }))
}

/**
 * Starts the app on a conversation (#/c/<id>), connects its socket, and waits
 * until it has loaded: bubbles messages, rows conversations, and the page has
 * told the server it is ready.
 */
export async function startApp(server: FakeServer, open: { id: string; bubbles: number; rows: number }): Promise<MountedApp> {
  const app = await mountApp(server, { hash: `#/c/${open.id}` })
  await app.until(() => app.sockets.length === 1, 'the socket')
  await app.act(() => {
    app.sockets[0]!.open()
    app.sockets[0]!.receive(statusFrame(server))
  })
  await app.until(
    () => bubbles(app).length === open.bubbles && app.root.byTestId('conversation-item').length === open.rows,
    'the conversation',
  )
  await app.until(() => server.count('POST', '/api/ui/ready') === 1, 'the start-up loads')
  return app
}
