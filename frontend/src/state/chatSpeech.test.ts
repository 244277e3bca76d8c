// The chat controller's hooks for the speech (voice/speech.ts): every frame of
// a stream this page drives, with how it was started; a new turn; Stop, even
// when no reply streams (the speech may go on after the text has ended).

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ApiClient, ChatFrame, ChatStream, Message, MessagePage, SeqFrame } from '../api'
import { AppStore } from './appStore'
import { ChatController } from './chatController'
import { installFakeBrowser, type FakeBrowser } from './fakeDom.test-util'
import { ReplyStore } from './replyStore'

const page = (messages: Message[]): MessagePage => ({ messages, hasOlder: false, hasNewer: false, branchLength: messages.length, displayMessages: [], summaries: [] })

function stream(frames: ChatFrame[]): ChatStream {
  async function* gen(): AsyncGenerator<SeqFrame, void, undefined> {
    let seq = 0
    for (const frame of frames) yield { seq: ++seq, frame }
  }
  return { runId: 'run-1', runEnded: false, messageId: null, frames: gen() }
}

describe('ChatController and the speech', () => {
  let browser: FakeBrowser
  beforeEach(() => {
    browser = installFakeBrowser()
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  })
  afterEach(() => {
    browser.uninstall()
    vi.restoreAllMocks()
  })

  it('hands every frame of a send to onFrame with its kind, after a new turn; Stop reaches onStop with nothing streaming', async () => {
    const log: string[] = []
    const frames: ChatFrame[] = [
      { type: 'token', text: 'Hi. ' },
      { type: 'speech', index: 0, text: 'Hi.', segment: 0, start: 0, end: 3, final: true },
      { type: 'done', fullText: 'Hi.', agentName: 'Wisp', runId: 'run-1', messageId: 'a1', actionCallbackHistory: [] },
    ]
    const api: Partial<ApiClient> = {
      listMessages: async () => page([]),
      streamMessage: async () => stream(frames),
    }
    const app = new AppStore()
    const chat = new ChatController({
      app,
      api: () => api as ApiClient,
      sendWs: () => undefined,
      replies: new ReplyStore(() => () => undefined),
      onFrame: (f, kind) => log.push(`${f.type}:${kind}`),
      onNewTurn: () => log.push('new-turn'),
      onStop: () => log.push('stop'),
    })
    chat.open('c1')
    await vi.waitFor(() => expect(app.get().chat.loading).toBe(false))
    expect(chat.send('hello')).toBe(true)
    await vi.waitFor(() => expect(log).toContain('done:send'))
    expect(log).toEqual(['new-turn', 'token:send', 'speech:send', 'done:send'])
    // The reply has ended; its speech may still play: Stop still reaches it.
    chat.stop()
    expect(log.at(-1)).toBe('stop')
    // The speech frame is not text: the bubble shows the token's.
    expect(app.get().chat.messages.at(-1)?.text).toBe('Hi.')
  })
})
