// The chat's controller, outside React (one per page, made by WispPage):
// opens conversations (and keeps the URL hash and the socket's
// active-conversation in step), sends messages, drives their reply streams
// (chatRunner.ts), resumes a reply that was still running when the page
// loaded, stops the streaming reply (its run is cancelled on the server, and
// the stream then ends with an "interrupted" frame), retries failed or
// stopped replies, reloads the open conversation when /ws missed events, and
// renames or deletes conversations. The tree: edits a question (a new branch),
// asks for another reply, and shows another branch (branches.ts).
//
// Its state is the chat slice of the app store (chat.ts, through the
// reducer): components select it with useChatState. The frames of a
// streaming reply go to the ReplyStore (one update per animation frame, read
// by the reply's bubble only); how the reply ends goes through the reducer.

import { ApiError, type ApiClient, type Attachment, type ChatFrame, type ClientMessage, type Message, type MessagePage } from '../api'
import type { AppStore } from './appStore'
import type { ChatMessageView } from './chatView'
import { isReplying, retryable, streamingReply, type ChatState } from './chat'
import { errorMessage, runReply, type NewReplyStart, type ReplyStart } from './chatRunner'
import { conversationFromHash, hashForConversation } from './hashRoute'
import { EMPTY_LIVE_REPLY, isLiveFrame, liveOf, type LiveReply } from './liveReply'
import { PAGE_SIZE, pageCursor, type PageSide } from './messageWindow'
import type { ReplyStore } from './replyStore'
import { isSummaryFrame, type SummaryFrame } from './summaries'

export interface ChatActions {
  /** Opens a conversation, or a new chat for null. */
  open(conversationId: string | null): void
  /**
   * Shows a message of a conversation (a search result): opens it, or loads the
   * open one again around the message when it is not among the loaded ones.
   */
  show(conversationId: string, messageId: string): void
  /** Loads the page before (older) or after (newer) the loaded messages, unless one is on its way. */
  page(side: PageSide): void
  /**
   * Sends text and uploaded files in the open conversation (creating it first
   * for a new chat); false when it cannot now. Files alone, with no text, may be sent.
   */
  send(text: string, attachments?: readonly Attachment[]): boolean
  /** Sends the prompt of a failed last reply again (or picks up its run if it is still going). */
  retry(replyKey: string): void
  /** Stops the reply that is streaming: cancels its run, at once or as soon as the run is known. */
  stop(): void
  /**
   * Reloads the open conversation from the server as opening it does (its
   * messages and display messages), after /ws missed events. While this page
   * streams a reply, that reply goes on and only the display messages and
   * what Wisp said on its own are caught up.
   */
  reload(): void
  /** Renames; rejects with ApiError for the caller to show. */
  rename(conversationId: string, title: string): Promise<void>
  /** Deletes; rejects with ApiError for the caller to show. */
  remove(conversationId: string): Promise<void>
  /**
   * Sends text as a new version of the user bubble key (a new branch, shown);
   * attachments: the new version's files (absent: the message's own); false when it cannot now.
   */
  edit(key: string, text: string, attachments?: readonly Attachment[]): boolean
  /** Asks again for the reply of bubble key (a new version beside it); false when it cannot now. */
  regenerate(key: string): boolean
  /** Shows the branch through messageId (down to its newest message); resolves false when it could not. */
  showBranch(messageId: string): Promise<boolean>
}

/** Which of a bubble's ‹ › buttons had the focus when its branch was left (the new version's takes it). */
export type BranchControl = 'prev' | 'next'

export interface ChatDeps {
  app: AppStore
  /** The API client now (null before the server is known). */
  api(): ApiClient | null
  /** Sends a frame on the page's socket (dropped while there is none). */
  sendWs(msg: ClientMessage): void
  replies: ReplyStore
  /**
   * Sees every frame of every reply stream (the approvals take run_paused and
   * run_resumed; the speech its clauses), with how the stream was started.
   */
  onFrame?(frame: ChatFrame, kind: ReplyStart['kind']): void
  /** This page starts a new turn (a send, an edit, a regenerate): the speech of the last one stops. */
  onNewTurn?(): void
  /** Stop was asked (the button, Esc), whether or not a reply streams: the speech stops. */
  onStop?(): void
  /** Takes the summary frames of a turn that summarises before its reply (summaries.ts). */
  summaries?: { take(frame: SummaryFrame): void }
}

function writeHash(id: string | null): void {
  if (conversationFromHash(location.hash) === id) return
  const url = id === null ? `${location.pathname}${location.search}` : hashForConversation(id)
  history.replaceState(history.state, '', url)
}

function notConnected(): ApiError {
  return new ApiError(0, 'not connected to the Wisp server yet')
}

export class ChatController implements ChatActions {
  private readonly deps: ChatDeps
  private session = 0
  private conversationId: string | null = null
  private readonly controllers = new Set<AbortController>()
  private sending = false
  /** Run ids of the replies this page drives, by bubble key (known before the state has them). */
  private readonly runOf = new Map<string, string>()
  /** Replies whose Stop came before their run id: cancelled once it arrives. */
  private readonly stopWhenKnown = new Set<string>()
  /** Runs whose resume was answered 204 (ended): a reload shows their saved message and does not pick them up again. */
  private readonly endedRuns = new Set<string>()
  private keyCounter = 0
  private started = false
  /** The version a ‹ › button led to, and which button: its bubble takes the focus once shown. */
  private branchFocus: { messageId: string; control: BranchControl } | null = null
  /** A PUT …/branch of this page is on its way: the frame it makes is this page's own. */
  private switchingBranch = false
  /** The session in which an edit or a regenerate of this page streams: the frame it makes is this page's own. */
  private branchingIn: number | null = null
  /** The leaves this page's edits and regenerates made (their frames may come late): no reason to read again. */
  private readonly ownLeaves = new Set<string>()
  /** The page on its way, by side (one at a time each). */
  private readonly paging = new Set<PageSide>()

  constructor(deps: ChatDeps) {
    this.deps = deps
  }

  /** The open chat now. */
  get state(): ChatState {
    return this.deps.app.get().chat
  }

  /** The conversation open now (null: a new chat). */
  get openId(): string | null {
    return this.conversationId
  }

  /**
   * The API became usable (at start, or with a new client): opens the
   * conversation of the URL hash the first time, the open one again after.
   */
  start(): void {
    const target = this.started ? this.conversationId : conversationFromHash(location.hash)
    this.started = true
    this.open(target)
  }

  /** Follows hand-edited hashes and back/forward between #/c/<id> URLs; returns the function that stops. */
  followHash(): () => void {
    const onHash = () => {
      const id = conversationFromHash(location.hash)
      if (id !== this.conversationId) this.open(id)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }

  /** A new /ws connection knows nothing of the open conversation: tell it again. */
  announce(): void {
    this.deps.sendWs({ type: 'active-conversation', conversationId: this.conversationId })
  }

  /** Aborts every stream of this page (the page is going). */
  dispose(): void {
    for (const ctrl of this.controllers) ctrl.abort()
    this.controllers.clear()
  }

  readonly open = (id: string | null, around?: string): void => {
    for (const ctrl of this.controllers) ctrl.abort()
    this.controllers.clear()
    this.runOf.clear()
    this.stopWhenKnown.clear()
    this.endedRuns.clear()
    this.deps.replies.clear()
    this.sending = false
    this.paging.clear()
    const session = this.session + 1
    this.session = session
    this.conversationId = id
    this.dispatch({ type: 'chat-open', session, conversationId: id })
    writeHash(id)
    this.announce()
    if (id !== null) void this.load(session, id, around)
  }

  readonly show = (conversationId: string, messageId: string): void => {
    if (conversationId !== this.conversationId) {
      this.open(conversationId, messageId)
      return
    }
    // Loading another window would drop the reply streaming at the end of this one.
    if (this.state.messages.some((m) => m.id === messageId) || this.streaming()) return
    const session = this.session
    this.paging.clear()
    this.dispatch({ type: 'chat-jump', session })
    void this.load(session, conversationId, messageId)
  }

  readonly page = (side: PageSide): void => {
    const client = this.deps.api()
    const { conversationId, session } = this
    const cursor = pageCursor(this.state, side)
    if (client === null || conversationId === null || cursor === null || this.state.loading || this.paging.has(side)) return
    this.paging.add(side)
    const query = side === 'older' ? { before: cursor, limit: PAGE_SIZE } : { after: cursor, limit: PAGE_SIZE }
    client.listMessages(conversationId, query).then(
      (page) => {
        if (!this.isCurrent(session)) return
        this.paging.delete(side)
        this.dispatch({ type: 'chat-page', session, side, cursor, page })
        if (side === 'newer') this.resumeActive(session, page.messages)
      },
      (err: unknown) => {
        if (!this.isCurrent(session)) return
        this.paging.delete(side)
        console.warn('wisp chat: cannot load more messages:', errorMessage(err))
      },
    )
  }

  readonly send = (text: string, attachments: readonly Attachment[] = []): boolean => {
    const chat = this.state
    // While a conversation loads, its arriving messages would replace the new ones.
    if (this.sending || chat.loading || isReplying(chat) || (text.trim() === '' && attachments.length === 0)) return false
    this.deps.onNewTurn?.()
    void this.sendNow(text, attachments)
    return true
  }

  readonly retry = (key: string): void => {
    void this.retryNow(key)
  }

  readonly stop = (): void => {
    this.deps.onStop?.()
    const reply = streamingReply(this.state)
    if (reply === undefined || reply.stopping) return
    const session = this.session
    this.dispatch({ type: 'chat-stopping', session, key: reply.key })
    const runId = this.runOf.get(reply.key) ?? reply.runId
    if (runId === undefined) this.stopWhenKnown.add(reply.key)
    else void this.cancel(session, reply.key, runId)
  }

  readonly reload = (): void => {
    const { session, conversationId } = this
    if (conversationId === null) return
    if (this.streaming()) void this.catchUp(session, conversationId)
    else void this.load(session, conversationId)
  }

  readonly rename = async (id: string, title: string): Promise<void> => {
    const client = this.deps.api()
    if (client === null) throw notConnected()
    this.dispatch({ type: 'conversation-upserted', conversation: await client.renameConversation(id, title) })
  }

  readonly remove = async (id: string): Promise<void> => {
    const client = this.deps.api()
    if (client === null) throw notConnected()
    try {
      await client.deleteConversation(id)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err
    }
    this.dispatch({ type: 'conversation-removed', id })
    if (this.conversationId === id) this.open(null)
  }

  /** Brings the open chat up to what the server saved (after /ws reconnected; a reply may stream meanwhile). */
  async catchUpMessages(): Promise<void> {
    const client = this.deps.api()
    const { conversationId, session } = this.state
    if (client === null || conversationId === null) return
    try {
      const { messages } = await client.listMessages(conversationId)
      this.dispatch({ type: 'chat-caught-up', session, messages })
    } catch (err) {
      console.warn('wisp: cannot catch up the open chat:', errorMessage(err))
    }
  }

  private readonly dispatch = (action: Parameters<AppStore['dispatch']>[0]) => this.deps.app.dispatch(action)

  private isCurrent(session: number): boolean {
    return this.session === session
  }

  private localKey(): string {
    return `local-${Date.now().toString(36)}-${++this.keyCounter}`
  }

  /** A reply of this page is streaming, or about to. */
  private streaming(): boolean {
    return this.sending || this.controllers.size > 0
  }

  /** Cancels a run; its stream then reports how it ended (stopped, or done if it won the race). */
  private async cancel(session: number, key: string, runId: string): Promise<void> {
    const client = this.deps.api()
    try {
      if (client === null) throw new ApiError(0, 'not connected to the Wisp server')
      await client.cancelRun(runId)
    } catch (err) {
      // 409: the run ended meanwhile, and its stream says how.
      if ((err instanceof ApiError && err.status === 409) || !this.isCurrent(session)) return
      this.dispatch({ type: 'chat-stop-failed', session, key })
      this.dispatch({ type: 'error', message: `Could not stop the reply: ${errorMessage(err)}` })
    }
  }

  private learnRun(session: number, key: string, runId: string): void {
    this.runOf.set(key, runId)
    if (this.stopWhenKnown.delete(key)) void this.cancel(session, key, runId)
  }

  /**
   * Streams a reply into the bubble `key`, starting from base: its frames go
   * to the ReplyStore, and its end (done, error, failure) to the reducer
   * together with what the store holds, so the bubble keeps what it showed.
   */
  private async drive(session: number, key: string, start: ReplyStart, ctrl: AbortController, base: LiveReply): Promise<void> {
    const client = this.deps.api()
    if (client === null) return
    const { replies } = this.deps
    const conversationOf = start.kind === 'resume' ? null : start.conversationId
    this.controllers.add(ctrl)
    replies.begin(key, base)
    if (start.kind === 'resume') this.learnRun(session, key, start.runId)
    let resynced = false
    const settled = () => {
      replies.flush()
      return replies.reply(key)
    }
    try {
      await runReply({
        api: client,
        start,
        signal: ctrl.signal,
        findRunId: conversationOf === null ? undefined : () => activeRunOf(client, conversationOf),
        report: (r) => {
          if (ctrl.signal.aborted) return
          switch (r.type) {
            case 'run':
              this.dispatch({ type: 'chat-run', session, key, runId: r.runId })
              this.learnRun(session, key, r.runId)
              break
            case 'message':
              if (start.kind === 'edit') this.ownLeaves.add(r.messageId)
              // A send or an edit names its question; a regenerate its reply.
              this.dispatch({ type: 'chat-message-id', session, replyKey: key, of: start.kind === 'regenerate' ? 'reply' : 'prompt', messageId: r.messageId })
              break
            case 'frame':
              // Seed 001: the run was cut short by a crash; once its stream has
              // ended, the conversation is read again as it was saved.
              if (r.frame.type === 'stream_resync') resynced = true
              this.deps.onFrame?.(r.frame, start.kind)
              // A summary the turn makes first: its own row, not the reply's bubble.
              if (isSummaryFrame(r.frame)) this.deps.summaries?.take(r.frame)
              else if (isLiveFrame(r.frame)) replies.push(key, r.seq, r.frame)
              else this.dispatch({ type: 'chat-frame', session, key, seq: r.seq, frame: r.frame, live: settled() })
              break
            case 'failed':
              this.dispatch({ type: 'chat-failed', session, key, message: r.message, live: settled() })
              break
            case 'ended': {
              // 204: nothing more to stream. The saved message says how the run ended.
              settled()
              const runId = this.runOf.get(key)
              if (runId !== undefined) this.endedRuns.add(runId)
              const id = this.conversationId
              if (id !== null && this.isCurrent(session)) void this.load(session, id)
              break
            }
          }
        },
      })
    } finally {
      this.controllers.delete(ctrl)
      this.stopWhenKnown.delete(key)
      const id = this.conversationId
      if (resynced && id !== null && this.isCurrent(session) && !ctrl.signal.aborted) void this.load(session, id)
    }
  }

  /** Picks up a run still going; from its start (after 0) the bubble shows its saved text until the replay has some. */
  private resume(session: number, key: string, runId: string, after: number, base: LiveReply): void {
    const fromStart = after === 0
    this.dispatch({ type: 'chat-resume', session, key, fromStart })
    const start = fromStart ? { ...EMPTY_LIVE_REPLY, text: base.text } : base
    void this.drive(session, key, { kind: 'resume', runId, after }, new AbortController(), start)
  }

  /** Loads the newest page of the conversation, or the page around a message (its branch shown first). */
  private async load(session: number, id: string, around?: string): Promise<void> {
    const client = this.deps.api()
    if (client === null) return
    try {
      const page = around === undefined ? await client.listMessages(id, { limit: PAGE_SIZE }) : await pageAround(client, id, around)
      if (!this.isCurrent(session)) return
      const { messages, displayMessages: display, hasOlder, hasNewer, summaries } = page
      this.dispatch({ type: 'chat-loaded', session, messages, display, page: { hasOlder, hasNewer }, summaries })
      this.resumeActive(session, messages)
    } catch (err) {
      if (!this.isCurrent(session)) return
      if (err instanceof ApiError && err.status === 404) {
        this.dispatch({ type: 'conversation-removed', id })
        this.open(null)
        return
      }
      this.dispatch({ type: 'chat-load-failed', session, message: errorMessage(err) })
    }
  }

  /** The page was loaded while these replies were being written: pick them up. */
  private resumeActive(session: number, messages: readonly Message[]): void {
    for (const m of messages) {
      if (m.role !== 'assistant' || m.status !== 'active' || m.runId === undefined) continue
      if (this.endedRuns.has(m.runId)) continue
      this.resume(session, m.id, m.runId, 0, { ...EMPTY_LIVE_REPLY, text: m.text })
    }
  }

  /** The display messages, and what Wisp said on its own, of the open conversation (a reply streams meanwhile). */
  private async catchUp(session: number, id: string): Promise<void> {
    const client = this.deps.api()
    if (client === null) return
    try {
      const { messages, displayMessages: display } = await client.listMessages(id, { limit: PAGE_SIZE })
      if (this.isCurrent(session)) this.dispatch({ type: 'chat-caught-up', session, messages, display })
    } catch (err) {
      console.warn('wisp chat: cannot reload the open conversation:', errorMessage(err))
    }
  }

  private async sendNow(text: string, attachments: readonly Attachment[] = []): Promise<void> {
    const client = this.deps.api()
    const session = this.session
    const userKey = this.localKey()
    const replyKey = this.localKey()
    const ctrl = new AbortController()
    this.controllers.add(ctrl)
    this.sending = true
    // The loaded window ends short of the branch's end: the message goes after the newest page.
    const id = this.conversationId
    if (this.state.hasNewer && id !== null) await this.load(session, id)
    if (!this.isCurrent(session)) return
    this.dispatch({ type: 'chat-sent', session, userKey, replyKey, text, ts: Date.now(), ...(attachments.length > 0 ? { attachments } : {}) })
    try {
      if (client === null) throw notConnected()
      let conversationId = this.conversationId
      if (conversationId === null) {
        const conv = await client.createConversation()
        if (ctrl.signal.aborted || !this.isCurrent(session)) return
        this.dispatch({ type: 'conversation-upserted', conversation: conv })
        this.dispatch({ type: 'chat-assigned', session, conversationId: conv.id })
        this.conversationId = conv.id
        writeHash(conv.id)
        this.announce()
        conversationId = conv.id
      }
      this.dispatch({ type: 'conversation-touched', id: conversationId, at: Date.now() })
      const request = { text, clientMessageId: userKey, ...(attachments.length > 0 ? { attachments: attachments.map((a) => a.id) } : {}) }
      const start: ReplyStart = { kind: 'send', conversationId, request }
      await this.drive(session, replyKey, start, ctrl, EMPTY_LIVE_REPLY)
    } catch (err) {
      if (!ctrl.signal.aborted) this.dispatch({ type: 'chat-failed', session, key: replyKey, message: errorMessage(err) })
    } finally {
      this.stopWhenKnown.delete(replyKey)
      this.controllers.delete(ctrl)
      if (this.isCurrent(session)) this.sending = false
    }
  }

  private async retryNow(key: string): Promise<void> {
    const chat = this.state
    const bubble = chat.messages.find((m) => m.key === key)
    const client = this.deps.api()
    if (bubble?.prompt === undefined || !retryable(chat, key) || client === null || this.sending) return
    const session = this.session
    const conversationId = this.conversationId
    let another = false
    this.sending = true
    try {
      if (bubble.runId !== undefined && conversationId !== null) {
        const run = await client.getRun(bubble.runId).catch(() => null)
        if (!this.isCurrent(session)) return
        if (run?.status === 'active') {
          this.resume(session, key, run.id, bubble.lastSeq, liveOf(bubble))
          return
        }
        // A reply with other versions is asked for again beside them (removing
        // its user message would remove them too); else the failed exchange is
        // replaced rather than repeated in the history.
        if (bubble.id !== null && (bubble.siblingIds?.length ?? 0) > 1) another = true
        else if (run?.userMessageId) {
          await client
            .truncateMessages(conversationId, run.userMessageId, true)
            .catch((err: unknown) => console.warn('wisp chat: could not remove the failed exchange', err))
        }
      }
    } finally {
      if (this.isCurrent(session)) this.sending = false
    }
    if (!this.isCurrent(session)) return
    if (another) {
      this.regenerate(key)
      return
    }
    this.dispatch({ type: 'chat-retry', session, key })
    void this.sendNow(bubble.prompt, bubble.promptAttachments)
  }

  // The tree: edit, regenerate, show another branch.

  readonly edit = (key: string, text: string, attachments?: readonly Attachment[]): boolean => {
    const chat = this.state
    const i = chat.messages.findIndex((m) => m.key === key)
    const bubble = chat.messages[i]
    const files = attachments ?? bubble?.attachments ?? []
    if (bubble?.role !== 'user' || !this.canBranch() || (text.trim() === '' && files.length === 0)) return false
    this.deps.onNewTurn?.()
    void this.editNow(bubble, chat.messages[i + 1], text, attachments)
    return true
  }

  readonly regenerate = (key: string): boolean => {
    const bubble = this.state.messages.find((m) => m.key === key)
    if (bubble?.role !== 'assistant' || bubble.id === null || bubble.prompt === undefined || !this.canBranch()) return false
    const conversationId = this.conversationId
    if (conversationId === null) return false
    const session = this.session
    const replyKey = this.localKey()
    this.deps.onNewTurn?.()
    const ctrl = this.beginReply()
    // The question it answers again becomes the leaf.
    const question = this.state.messages[this.state.messages.indexOf(bubble) - 1]?.id
    if (question != null) this.ownLeaves.add(question)
    this.dispatch({ type: 'chat-regenerating', session, key, replyKey, ts: Date.now() })
    void this.streamNew(session, replyKey, ctrl, { kind: 'regenerate', conversationId, messageId: bubble.id }, 'ask again')
    return true
  }

  readonly showBranch = async (messageId: string): Promise<boolean> => {
    const client = this.deps.api()
    const { session, conversationId } = this
    // A reply that streams makes the server refuse (409); one paused on an approval does not.
    const chat = this.state
    if (client === null || conversationId === null || this.sending || chat.loading || chat.loadError !== null) return false
    this.sending = true
    this.switchingBranch = true
    try {
      let page = await client.setBranch(conversationId, messageId)
      // A version far up a long branch: the page around it, not the newest.
      if (!page.messages.some((m) => m.id === messageId)) {
        page = await client.listMessages(conversationId, { around: messageId, limit: PAGE_SIZE })
      }
      if (!this.isCurrent(session)) return false
      this.showPage(session, page)
      return true
    } catch (err) {
      if (this.isCurrent(session)) this.dispatch({ type: 'error', message: `Could not show that version: ${errorMessage(err)}` })
      return false
    } finally {
      this.switchingBranch = false
      if (this.isCurrent(session)) this.sending = false
    }
  }

  /** Remembers the ‹ › button that led to messageId: its bubble's takes the focus when shown. */
  focusBranchOnShow(messageId: string, control: BranchControl): void {
    this.branchFocus = { messageId, control }
  }

  /** The button of messageId's bubble that should take the focus now (once). */
  takeBranchFocus(messageId: string): BranchControl | null {
    if (this.branchFocus?.messageId !== messageId) return null
    const { control } = this.branchFocus
    this.branchFocus = null
    return control
  }

  /**
   * /ws conversation-branch: another window showed another branch of a
   * conversation (or edited, or regenerated). The open one is read again,
   * unless this page shows that branch already (its own switch). While an
   * edit or a regenerate of this page streams, its stream is the branch: only
   * what Wisp said meanwhile is caught up. Else a reply this page follows can
   * only be paused on an approval (the server refuses a switch while one
   * streams): it goes on without this page, which opens the conversation
   * again as it is now (and picks the reply up when its branch is shown).
   */
  branchMoved(conversationId: string, leafId: string): void {
    if (conversationId !== this.conversationId || this.switchingBranch || this.ownLeaves.delete(leafId)) return
    if (this.state.messages.at(-1)?.id === leafId) return
    if (this.branchingIn === this.session) {
      this.reload()
      return
    }
    this.open(conversationId)
  }

  /** Stops following this page's reply streams (their runs go on). */
  private leaveStreams(): void {
    for (const ctrl of this.controllers) ctrl.abort()
    this.controllers.clear()
    this.runOf.clear()
    this.stopWhenKnown.clear()
    this.deps.replies.clear()
  }

  /** No reply streams or is about to, and the conversation is loaded: its branches may change. */
  private canBranch(): boolean {
    const chat = this.state
    return this.conversationId !== null && !this.sending && !chat.loading && chat.loadError === null && !isReplying(chat)
  }

  private beginReply(): AbortController {
    const ctrl = new AbortController()
    this.controllers.add(ctrl)
    this.sending = true
    this.branchingIn = this.session
    return ctrl
  }

  private async editNow(
    bubble: ChatMessageView,
    reply: ChatMessageView | undefined,
    text: string,
    attachments: readonly Attachment[] | undefined,
  ): Promise<void> {
    const client = this.deps.api()
    const session = this.session
    const conversationId = this.conversationId
    if (client === null || conversationId === null) return
    const ctrl = this.beginReply()
    let messageId = bubble.id
    try {
      // A question sent from this page is known by its reply's run until the page is read again.
      messageId ??= await userMessageOf(client, reply)
    } catch (err) {
      this.controllers.delete(ctrl)
      if (!this.isCurrent(session)) return
      this.sending = false
      this.branchingIn = null
      this.dispatch({ type: 'error', message: `Could not edit the message: ${errorMessage(err)}` })
      return
    }
    if (ctrl.signal.aborted || !this.isCurrent(session)) {
      if (this.branchingIn === session) this.branchingIn = null
      return
    }
    const userKey = this.localKey()
    const replyKey = this.localKey()
    const files = attachments ?? bubble.attachments ?? []
    this.dispatch({ type: 'chat-edit-sent', session, key: bubble.key, editedId: messageId, userKey, replyKey, text, ts: Date.now(), attachments: files })
    // Absent, the server keeps the edited message's own files; present, exactly these.
    const request = { text, clientMessageId: userKey, ...(attachments === undefined ? {} : { attachments: attachments.map((a) => a.id) }) }
    const start: NewReplyStart = { kind: 'edit', conversationId, messageId, request }
    await this.streamNew(session, replyKey, ctrl, start, 'edit the message')
  }

  /**
   * Streams the reply of an edit or a regenerate. When the server refused it
   * (no run began), the conversation is read again as it is and the reason
   * shown, since the bubbles shown ahead of the answer are not saved.
   */
  private async streamNew(session: number, replyKey: string, ctrl: AbortController, start: NewReplyStart, what: string): Promise<void> {
    try {
      this.dispatch({ type: 'conversation-touched', id: start.conversationId, at: Date.now() })
      await this.drive(session, replyKey, start, ctrl, EMPTY_LIVE_REPLY)
    } catch (err) {
      if (!ctrl.signal.aborted) this.dispatch({ type: 'chat-failed', session, key: replyKey, message: errorMessage(err) })
    } finally {
      this.stopWhenKnown.delete(replyKey)
      this.controllers.delete(ctrl)
      if (this.isCurrent(session)) this.sending = false
      if (this.branchingIn === session) this.branchingIn = null
    }
    const reply = this.state.messages.find((m) => m.key === replyKey)
    if (ctrl.signal.aborted || !this.isCurrent(session) || this.runOf.has(replyKey) || reply?.status !== 'error') return
    this.dispatch({ type: 'error', message: `Could not ${what}: ${reply.error ?? 'the server refused'}` })
    this.reload()
  }

  /** A page of the branch now shown (PUT …/branch answered it), shown as opening does; a reply still being written is picked up. */
  private showPage(session: number, page: MessagePage): void {
    // A reply paused on this branch goes on without this page, which picks it up when it shows it again.
    this.leaveStreams()
    this.paging.clear()
    const { messages, displayMessages: display, hasOlder, hasNewer, summaries } = page
    this.dispatch({ type: 'chat-loaded', session, messages, display, page: { hasOlder, hasNewer }, summaries })
    this.resumeActive(session, messages)
  }
}

/** The id of the user message a reply of this page answers, from its run. */
async function userMessageOf(client: ApiClient, reply: ChatMessageView | undefined): Promise<string> {
  if (reply?.runId === undefined) throw new ApiError(0, 'the message is not saved yet')
  const run = await client.getRun(reply.runId)
  if (run.userMessageId === undefined || run.userMessageId === '') throw new ApiError(0, 'the server did not say which message it was')
  return run.userMessageId
}

/**
 * The page around messageId, its branch made the one shown first (PUT …/branch);
 * the newest page when the message is gone.
 */
async function pageAround(client: ApiClient, conversationId: string, messageId: string): Promise<MessagePage> {
  try {
    await client.setBranch(conversationId, messageId)
    return await client.listMessages(conversationId, { around: messageId, limit: PAGE_SIZE })
  } catch (err) {
    if (!(err instanceof ApiError && (err.status === 404 || err.status === 405))) throw err
    return client.listMessages(conversationId, { limit: PAGE_SIZE })
  }
}

/** The run of the conversation's reply in progress, from its "active" assistant message. */
async function activeRunOf(api: ApiClient, conversationId: string): Promise<string | null> {
  const { messages } = await api.listMessages(conversationId)
  const active = messages.findLast((m) => m.role === 'assistant' && m.status === 'active' && m.runId !== undefined)
  return active?.runId ?? null
}
