// The conversation as a tree on the whole app (WispProvider + App) against the
// fake server: the ‹ › versions of a message, editing a question in place
// (Enter, Shift+Enter, Escape), Regenerate, another window's branch switch,
// an approval waiting on a branch not shown, and Retry of a regenerated reply.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Message } from '../api'
import { approvalExample } from '../api/approvals.test-util'
import { bubbles, startApp, type MountedApp } from './appHarness.test-util'
import { FakeElement } from './fakeDom.test-util'
import { click, keyDown, typeInto } from './fakeEvents.test-util'
import { FakeServer, SseFeed, json, messagePage } from './fakeServer.test-util'

vi.mock('../components/Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('../components/AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('../components/EmotePicker', () => ({ EmotePicker: () => null }))
vi.mock('../components/TerminalDock', () => ({ TerminalDock: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'

// Two versions of the question; the second is shown, and its answer has two versions too.
const shown: Partial<Message>[] = [
  { id: 'u1', role: 'user', text: 'second question', timestamp: 3, source: 'chat', siblingIds: ['u0', 'u1'], siblingIndex: 1 },
  {
    id: 'a1',
    role: 'assistant',
    text: 'second answer',
    timestamp: 4,
    runId: 'run-1',
    status: 'ended',
    source: 'chat',
    siblingIds: ['a1x', 'a1'],
    siblingIndex: 1,
  },
]
const other: Partial<Message>[] = [
  { id: 'u0', role: 'user', text: 'first question', timestamp: 1, source: 'chat', siblingIds: ['u0', 'u1'], siblingIndex: 0 },
  { id: 'a0', role: 'assistant', text: 'first answer', timestamp: 2, runId: 'run-0', status: 'ended', source: 'chat' },
]

function makeServer(): FakeServer {
  const server = new FakeServer()
  server.conversations = [
    { id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
    { id: 'c2', title: 'Other chat', roomId: '', createdAt: at, updatedAt: at, unread: false },
  ]
  server.messages.set(CONV, shown as Message[])
  // PUT …/branch {messageId: u0} shows the other branch.
  server.branch = (id, body) => {
    const to = (body as { messageId?: string }).messageId
    server.messages.set(id, (to === 'u0' || to === 'a0' ? other : shown) as Message[])
    return json(200, messagePage(server.messages.get(id) ?? []))
  }
  return server
}

const one = (root: FakeElement, testId: string): FakeElement => {
  const found = root.byTestId(testId)
  if (found.length !== 1) throw new Error(`${found.length} elements with data-testid=${testId}`)
  return found[0]!
}

/** The bubble of a message id. */
const bubbleOf = (app: MountedApp, id: string): FakeElement => {
  const found = app.root.byTestId('message').filter((el) => el.getAttribute('data-message-id') === id)
  if (found.length !== 1) throw new Error(`${found.length} bubbles of ${id}`)
  return found[0]!
}

const positions = (app: MountedApp): string[] => app.root.byTestId('branch-position').map((el) => el.textContent)
const disabled = (el: FakeElement): boolean => el.hasAttribute('disabled')
const texts = (app: MountedApp): string[] => bubbles(app).map((b) => b.text)
/** Which element took the focus last, by its test id and its bubble's message id (elements cannot be printed). */
const focusOf = (focused: FakeElement[]): string => {
  const el = focused.at(-1)
  if (el === undefined) return 'nothing'
  let bubble: FakeElement | null = el
  while (bubble !== null && bubble.getAttribute('data-testid') !== 'message') bubble = bubble.parentElement
  return `${el.getAttribute('data-testid')} of ${bubble?.getAttribute('data-message-id') ?? 'no message'}`
}

/** A key pressed with Shift held. */
function shiftKeyDown(root: FakeElement, target: FakeElement, key: string): void {
  const keyCode = key === 'Enter' ? 13 : 0
  root.dispatchEvent({
    type: 'keydown',
    target,
    bubbles: true,
    cancelable: true,
    timeStamp: Date.now(),
    key,
    keyCode,
    which: keyCode,
    shiftKey: true,
    isComposing: false,
    defaultPrevented: false,
    preventDefault() {},
    stopPropagation() {},
  } as never)
}

describe('the conversation as a tree', () => {
  let app: MountedApp | null = null
  let focused: FakeElement[] = []
  beforeEach(() => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    focused = []
    vi.spyOn(FakeElement.prototype, 'focus').mockImplementation(function (this: FakeElement) {
      focused.push(this)
    })
  })
  afterEach(async () => {
    await app?.unmount()
    app = null
    vi.restoreAllMocks()
  })

  const start = async (server: FakeServer) => (app = await startApp(server, { id: CONV, bubbles: 2, rows: 2 }))

  it('shows ‹ 2 / 2 › on messages with versions, and switches to another at once, keeping the focus', async () => {
    const server = makeServer()
    const a = await start(server)
    expect(positions(a)).toEqual(['2 / 2', '2 / 2'])
    const nav = one(bubbleOf(a, 'u1'), 'branch-nav')
    expect(nav.getAttribute('aria-label')).toBe('Version 2 of 2')
    const prev = one(nav, 'branch-prev')
    expect(prev.getAttribute('aria-label')).toBe('Previous version')
    expect(disabled(prev)).toBe(false)
    expect(disabled(one(nav, 'branch-next'))).toBe(true)
    const loads = server.count('GET', `/api/conversations/${CONV}/messages`)

    await a.act(() => click(a.root, prev))
    await a.until(() => texts(a)[0] === 'first question', 'the other branch')
    expect(server.requests.filter((r) => r.method === 'PUT')).toEqual([
      { method: 'PUT', path: `/api/conversations/${CONV}/branch`, body: { messageId: 'u0' } },
    ])
    // The page PUT answered is shown: nothing else is read again.
    expect(server.count('GET', `/api/conversations/${CONV}/messages`)).toBe(loads)
    expect(texts(a)).toEqual(['first question', 'first answer'])
    expect(positions(a)).toEqual(['1 / 2'])
    // ‹ is disabled at the first version: the focus goes to › of the version shown.
    const shownNav = one(bubbleOf(a, 'u0'), 'branch-nav')
    expect(disabled(one(shownNav, 'branch-prev'))).toBe(true)
    expect(focusOf(focused)).toBe('branch-next of u0')

    await a.act(() => click(a.root, one(shownNav, 'branch-next')))
    await a.until(() => texts(a)[0] === 'second question', 'the branch back')
    expect(server.requests.filter((r) => r.method === 'PUT').at(-1)?.body).toEqual({ messageId: 'u1' })
    // (› is disabled at the last version: ‹ takes the focus.)
    expect(focusOf(focused)).toBe('branch-prev of u1')
  })

  it('edits a question in place: Enter sends it as a new version whose reply streams', async () => {
    const server = makeServer()
    const a = await start(server)
    await a.act(() => click(a.root, one(bubbleOf(a, 'u1'), 'edit-message')))
    const area = one(a.root, 'message-editor-text')
    expect(area.value).toBe('second question')
    expect(focusOf(focused)).toBe('message-editor-text of u1')

    await a.act(() => typeInto(a.root, area, 'a better question'))
    await a.act(() => keyDown(a.root, area, 'Enter'))
    await a.until(() => server.sends.length === 1, 'the edit')
    expect(server.sends[0]!.path).toBe(`/api/conversations/${CONV}/messages/u1/edit?dialect=delta`)
    const sent = server.requests.find((r) => r.path.includes('/edit'))
    expect(sent?.body).toMatchObject({ text: 'a better question' })
    expect(a.root.byTestId('message-editor')).toHaveLength(0)
    // The new version replaces the old one and what followed it; the server named it.
    await a.until(() => a.root.byTestId('message').some((el) => el.getAttribute('data-message-id') === 'm-new'), 'its id')
    expect(bubbles(a)).toEqual([
      { role: 'user', status: 'done', text: 'a better question' },
      { role: 'assistant', status: 'streaming', text: '' },
    ])
    expect(positions(a)).toEqual(['3 / 3'])
    // Nothing else changes branches while the reply streams.
    expect(disabled(one(a.root, 'edit-message'))).toBe(true)
    expect(disabled(one(a.root, 'branch-prev'))).toBe(true)

    await a.act(() => {
      server.sends[0]!.send(1, { type: 'token', text: 'A better answer' })
      server.sends[0]!.send(2, {
        type: 'done',
        fullText: 'A better answer',
        agentName: 'Wisp',
        runId: server.runId,
        messageId: 'a-new',
        actionCallbackHistory: [],
      })
      server.sends[0]!.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the reply')
    expect(texts(a)).toEqual(['a better question', 'A better answer'])
    // Its /ws frame, late: the leaf it made is this page's own; nothing is read again.
    const loads = server.count('GET', `/api/conversations/${CONV}/messages`)
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'm-new' }))
    expect(server.count('GET', `/api/conversations/${CONV}/messages`)).toBe(loads)
    expect(disabled(one(a.root, 'edit-message'))).toBe(false)
    expect(disabled(one(a.root, 'branch-prev'))).toBe(false)
  })

  it('edits a question this page sent, known by its reply\'s run, as a version beside it', async () => {
    const server = makeServer()
    server.messages.set(CONV, [])
    server.runs.set(server.runId, { id: server.runId, conversationId: CONV, userMessageId: 'u5', status: 'ended', startedAt: 1 })
    const a = (app = await startApp(server, { id: CONV, bubbles: 0, rows: 2 }))
    await a.act(() => {
      expect(a.chat().send('fresh question')).toBe(true)
    })
    await a.until(() => server.sends.length === 1, 'the send')
    await a.act(() => {
      server.sends[0]!.send(1, { type: 'done', fullText: 'ok', agentName: 'Wisp', runId: server.runId, messageId: 'a5', actionCallbackHistory: [] })
      server.sends[0]!.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the reply')
    await a.act(() => click(a.root, one(a.root, 'edit-message')))
    await a.act(() => typeInto(a.root, one(a.root, 'message-editor-text'), 'fresher question'))
    await a.act(() => keyDown(a.root, one(a.root, 'message-editor-text'), 'Enter'))
    await a.until(() => server.sends.length === 2, 'the edit')
    expect(server.sends[1]!.path).toBe(`/api/conversations/${CONV}/messages/u5/edit?dialect=delta`)
    await a.until(() => positions(a).length === 1, 'its versions')
    expect(positions(a)).toEqual(['2 / 2'])
    // ‹ leads to the question it edits, by its id.
    await a.act(() => {
      server.sends[1]!.send(1, { type: 'done', fullText: 'ok', agentName: 'Wisp', runId: server.runId, messageId: 'a6', actionCallbackHistory: [] })
      server.sends[1]!.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the reply')
    await a.act(() => click(a.root, one(a.root, 'branch-prev')))
    await a.until(() => server.count('PUT', `/api/conversations/${CONV}/branch`) === 1, 'the switch')
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ messageId: 'u5' })
  })

  it('names the question it sent by the stream\'s X-Wisp-Message-Id, so it can be edited and paged out like any other', async () => {
    const server = makeServer()
    server.messages.set(CONV, [])
    server.sentMessageId = 'u7'
    const a = (app = await startApp(server, { id: CONV, bubbles: 0, rows: 2 }))
    await a.act(() => {
      expect(a.chat().send('fresh question')).toBe(true)
    })
    await a.until(() => server.sends.length === 1, 'the send')
    const asked = () => a.root.byTestId('message').find((el) => el.getAttribute('data-role') === 'user')
    await a.until(() => asked()?.getAttribute('data-message-id') === 'u7', 'the question named')
    await a.act(() => {
      server.sends[0]!.send(1, { type: 'done', fullText: 'ok', agentName: 'Wisp', runId: server.runId, messageId: 'a7', actionCallbackHistory: [] })
      server.sends[0]!.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the reply')
    expect(a.root.byTestId('message').map((el) => el.getAttribute('data-message-id'))).toEqual(['u7', 'a7'])
    // Named: no run is looked up to edit it.
    await a.act(() => click(a.root, one(a.root, 'edit-message')))
    await a.act(() => typeInto(a.root, one(a.root, 'message-editor-text'), 'fresher question'))
    await a.act(() => keyDown(a.root, one(a.root, 'message-editor-text'), 'Enter'))
    await a.until(() => server.sends.length === 2, 'the edit')
    expect(server.sends[1]!.path).toBe(`/api/conversations/${CONV}/messages/u7/edit?dialect=delta`)
    expect(server.count('GET', `/api/runs/${server.runId}`)).toBe(0)
  })

  it('keeps Shift+Enter as a new line, and Escape cancels and gives the focus back to the pencil', async () => {
    const server = makeServer()
    const a = await start(server)
    const pencil = one(bubbleOf(a, 'u1'), 'edit-message')
    expect(pencil.getAttribute('aria-label')).toBe('Edit message')
    await a.act(() => click(a.root, pencil))
    const area = one(a.root, 'message-editor-text')
    await a.act(() => typeInto(a.root, area, 'line one'))
    await a.act(() => shiftKeyDown(a.root, area, 'Enter'))
    expect(a.root.byTestId('message-editor')).toHaveLength(1)

    await a.act(() => keyDown(a.root, area, 'Escape'))
    expect(a.root.byTestId('message-editor')).toHaveLength(0)
    expect(texts(a)[0]).toBe('second question')
    expect(focusOf(focused)).toBe('edit-message of u1')
    expect(server.requests.some((r) => r.path.includes('/edit'))).toBe(false)
    expect(server.sends).toHaveLength(0)
  })

  it('regenerates a reply: a third version streams beside the others', async () => {
    const server = makeServer()
    server.newMessageId = 'a1y'
    const a = await start(server)
    const button = one(bubbleOf(a, 'a1'), 'regenerate')
    expect(button.getAttribute('aria-label')).toBe('Regenerate the reply')
    await a.act(() => click(a.root, button))
    await a.until(() => server.sends.length === 1, 'the regenerate')
    expect(server.sends[0]!.path).toBe(`/api/conversations/${CONV}/messages/a1/regenerate?dialect=delta`)
    await a.until(() => bubbles(a).at(-1)?.status === 'streaming', 'the new reply')
    expect(texts(a)).toEqual(['second question', ''])
    expect(positions(a)).toEqual(['2 / 2', '3 / 3'])
    // No Regenerate while a reply streams.
    expect(a.root.byTestId('regenerate')).toHaveLength(0)

    await a.act(() => {
      server.sends[0]!.send(1, { type: 'token', text: 'Third answer' })
      server.sends[0]!.send(2, {
        type: 'done',
        fullText: 'Third answer',
        agentName: 'Wisp',
        runId: server.runId,
        messageId: 'a1y',
        actionCallbackHistory: [],
      })
      server.sends[0]!.end()
    })
    await a.until(() => bubbles(a).at(-1)?.status === 'done', 'the reply')
    expect(texts(a)).toEqual(['second question', 'Third answer'])
    expect(bubbleOf(a, 'a1y').getAttribute('data-status')).toBe('done')
    // Its /ws frame, late: the leaf it made (its question) is this page's own; nothing is read again.
    const loads = server.count('GET', `/api/conversations/${CONV}/messages`)
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'u1' }))
    expect(server.count('GET', `/api/conversations/${CONV}/messages`)).toBe(loads)
    expect(texts(a)).toEqual(['second question', 'Third answer'])
    // Its ‹ leads to the version before it.
    await a.act(() => click(a.root, one(bubbleOf(a, 'a1y'), 'branch-prev')))
    await a.until(() => server.count('PUT', `/api/conversations/${CONV}/branch`) === 1, 'the switch')
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ messageId: 'a1' })
  })

  it('shows why an edit was refused and reads the conversation again', async () => {
    const server = makeServer()
    server.refuseNew = () => json(409, { error: 'a reply is being written' })
    const a = await start(server)
    const loads = server.count('GET', `/api/conversations/${CONV}/messages`)
    await a.act(() => click(a.root, one(bubbleOf(a, 'u1'), 'edit-message')))
    await a.act(() => typeInto(a.root, one(a.root, 'message-editor-text'), 'again'))
    await a.act(() => click(a.root, one(a.root, 'message-editor-send')))
    await a.until(() => server.count('GET', `/api/conversations/${CONV}/messages`) === loads + 1, 'the reload')
    await a.until(() => texts(a)[0] === 'second question', 'the saved branch')
    expect(texts(a)).toEqual(['second question', 'second answer'])
    const alerts = a.root.findAll((el) => el.getAttribute('role') === 'alert').map((el) => el.textContent)
    expect(alerts.some((t) => t.includes('Could not edit the message') && t.includes('a reply is being written'))).toBe(true)
  })

  it("reads the open conversation again when another window shows another branch, not for this page's own", async () => {
    const server = makeServer()
    const a = await start(server)
    const loads = () => server.count('GET', `/api/conversations/${CONV}/messages`)
    const before = loads()
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'a1' }))
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: 'c2', leafId: 'x' }))
    expect(loads()).toBe(before)

    server.messages.set(CONV, other as Message[])
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'a0' }))
    await a.until(() => texts(a)[0] === 'first question', 'the branch shown elsewhere')
    expect(loads()).toBe(before + 1)
  })

  it('leaves a reply paused on an approval when another window shows another branch, and picks it up back there', async () => {
    const server = makeServer()
    const pausedReply = { ...shown[1], status: 'active', text: '' } as Message
    server.messages.set(CONV, [shown[0], pausedReply] as Message[])
    const resumed = new SseFeed('/api/runs/run-1/stream')
    server.runAnswers.push({ kind: 'stream', feed: resumed })
    const a = await start(server)
    await a.until(() => server.count('GET', '/api/runs/run-1/stream') === 1, 'the paused reply picked up')
    expect(bubbles(a).at(-1)?.status).toBe('streaming')

    server.messages.set(CONV, other as Message[])
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'a0' }))
    await a.until(() => texts(a)[0] === 'first question', 'the branch shown elsewhere')
    expect(bubbles(a).map((b) => b.status)).toEqual(['done', 'done'])
    // The branch can change again here: nothing streams on it.
    expect(disabled(one(a.root, 'branch-next'))).toBe(false)

    // A reply this page sent, waiting (paused), is left the same way.
    await a.act(() => {
      expect(a.chat().send('run something')).toBe(true)
    })
    await a.until(() => server.sends.length === 1, 'the send')
    server.messages.set(CONV, shown as Message[])
    await a.act(() => a.sockets[0]!.receive({ type: 'conversation-branch', conversationId: CONV, leafId: 'a1' }))
    await a.until(() => texts(a)[0] === 'second question', 'the branch shown elsewhere')
    expect(bubbles(a).map((b) => b.status)).toEqual(['done', 'done'])
    expect(a.chat().send('and now')).toBe(true)
  })

  it('offers to show the branch an approval waits on, and marks the conversation', async () => {
    const server = makeServer()
    const approval = { ...approvalExample, runId: 'run-0', conversationId: CONV, messageId: 'u0' }
    server.approvals = [approval]
    const a = await start(server)
    await a.until(() => a.root.byTestId('approval-elsewhere').length === 1, 'the notice')
    expect(one(a.root, 'approval-elsewhere').textContent).toContain('An approval is waiting on another branch')
    // Its card is not shown here; the open conversation is marked as waiting.
    expect(a.root.byTestId('approval-card')).toHaveLength(0)
    expect(a.root.byTestId('approval-pending-mark')).toHaveLength(1)

    await a.act(() => click(a.root, one(a.root, 'approval-elsewhere-show')))
    await a.until(() => texts(a)[0] === 'first question', 'its branch')
    expect(server.requests.find((r) => r.method === 'PUT')?.body).toEqual({ messageId: 'u0' })
    expect(a.root.byTestId('approval-elsewhere')).toHaveLength(0)
    expect(a.root.byTestId('approval-pending-mark')).toHaveLength(0)
  })

  it('retries a failed reply that has other versions by regenerating it, keeping them', async () => {
    const server = makeServer()
    const failed = { ...shown[1], status: 'failed', error: 'the model went away' } as Message
    server.messages.set(CONV, [shown[0], failed] as Message[])
    server.runs.set('run-1', { id: 'run-1', conversationId: CONV, userMessageId: 'u1', status: 'failed', startedAt: 1 })
    const a = await start(server)
    await a.act(() => click(a.root, one(a.root, 'retry')))
    await a.until(() => server.sends.length === 1, 'the regenerate')
    expect(server.sends[0]!.path).toBe(`/api/conversations/${CONV}/messages/a1/regenerate?dialect=delta`)
    expect(server.count('POST', `/api/conversations/${CONV}/messages/truncate`)).toBe(0)
  })
})
