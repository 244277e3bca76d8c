// Everything one page (one mount of WispProvider) holds, outside React: its
// stores, its chat controller, the API client and socket once the server is
// known, and the actions components call. WispProvider makes one, feeds it
// (the server's address, the socket's frames through frameTable.ts, the
// start-up loads) and puts it in a context that never changes; components
// select what they show from its stores (useStore), so a frame re-renders
// only the components that select what it changed.

import {
  ApiError,
  Listeners,
  isUnauthorized,
  planAfterRestart,
  saveToken,
  tabClientId,
  type ApiClient,
  type Approval,
  type AutonomyState,
  type Avatar,
  type EmoteCatalog,
  type ExportFormat,
  type ImportResult,
  type ProviderInfo,
  type ProviderUpdate,
  type SearchOptions,
  type SearchResults,
  type WispConfig,
  type ClientMessage,
  type EmoteMessage,
  type NewReminder,
  type ProactiveMessageFrame,
  type ResolvedConnection,
  type TerminalOutputMessage,
  type Unsubscribe,
  type WispSocket,
} from '../api'
import { AppStore } from './appStore'
import { ApprovalStore } from './approvalStore'
import { ChatController } from './chatController'
import { ContextMeter } from './contextMeter'
import { exportConversations, pageSink, type ExportOutcome } from './archive'
import { errorMessage } from './chatRunner'
import type { EmoteBridge } from './emoteBridge'
import { LoadStore } from './loadStore'
import { McpStore } from './mcpStore'
import { MemoryStore } from './memoryStore'
import { MessageFocus } from './messageFocus'
import { TaskStore } from './taskStore'
import { ReplyStore, type FrameScheduler } from './replyStore'
import { Store } from './store'
import { SummaryController, SummaryLive } from './summaries'
import { UsageReportStore } from './usageReport'
import { followReplyUsage } from './replyUsage'
import type { TerminalBridge } from './terminalBridge'
import { Voice } from '../voice/voice'

export type Endpoint = Omit<ResolvedConnection, 'token'>

export interface ReminderActions {
  /** Schedules a reminder; rejects with ApiError (the server's message) for the form to show. */
  create(req: NewReminder): Promise<void>
  /** Deletes a reminder; one already gone counts as deleted. Rejects with ApiError otherwise. */
  remove(id: string): Promise<void>
}

/**
 * Events of the page that are not state: what subscribers do with them is
 * theirs (the terminal draws output, the avatar plays an emote, the
 * notifier shows a notice, the settings reload).
 */
export interface PageEvents {
  output: Listeners<TerminalOutputMessage>
  /** {"type":"error"} frames of the socket. */
  errors: Listeners<string>
  emotes: Listeners<EmoteMessage>
  /** config-changed frames: the paths that changed; none when the page missed frames and any may have. */
  configChanged: Listeners<string[]>
  proactive: Listeners<ProactiveMessageFrame>
  /** approval-requested and approval-decided frames, after the store took them (notifications). */
  approvals: Listeners<Approval>
}

export class WispPage {
  readonly app = new AppStore()
  /** The API client once the server is known (null before); a new one when the token or server changes. */
  readonly api = new Store<ApiClient | null>(null)
  readonly replies: ReplyStore
  readonly approvals = new ApprovalStore()
  readonly mcp = new McpStore()
  readonly chat: ChatController
  /** The open conversation's context meter and cost (contextMeter.ts). */
  readonly meter = new ContextMeter(() => this.api.get())
  /** The text of summaries being written, and their buttons' requests (summaries.ts). */
  readonly summaryLive: SummaryLive
  /** Summary frames and the rows' Regenerate and Undo. */
  readonly summaries: SummaryController
  /** Settings › Usage: tokens and cost by day and model. */
  readonly usageReport = new UsageReportStore(() => this.api.get())
  /** The message the chat should bring into view (a search result chosen, a citation followed). */
  readonly messageFocus = new MessageFocus()
  /** Settings → Memory: the memory, its edit, history and undo. */
  readonly memory = new MemoryStore()
  /** Settings → Tasks: the tasks on a schedule, kept by their frames. */
  readonly tasks = new TaskStore()
  /** GET /api/emotes: the avatar's and the picker's catalog. */
  readonly emoteCatalog = new LoadStore<EmoteCatalog>(() => this.api.get(), (api) => api.listEmotes())
  /** GET /api/avatar: the character the stage shows (avatar-changed frames put the new one). */
  readonly avatar = new LoadStore<Avatar>(() => this.api.get(), (api) => api.avatar.get())
  /** GET /api/provider: the provider form's saved settings. */
  readonly provider = new LoadStore<ProviderInfo>(() => this.api.get(), (api) => api.getProvider())
  /** The ui settings of GET /api/config (theme, notifications), reloaded when they change. */
  readonly ui = new LoadStore<WispConfig['ui']>(() => this.api.get(), async (api) => {
    const { config } = await api.getConfig()
    // The same answer has the voice settings: no second request for them.
    this.voice.config.put(config.voice)
    return config.ui
  })
  /** The voice settings, the reply's speech and the microphone (voice/voice.ts). */
  readonly voice: Voice
  /** GET /api/agent/autonomy: the autonomy loop as it runs now. */
  readonly autonomy = new LoadStore<AutonomyState>(() => this.api.get(), (api) => api.getAutonomy())
  readonly events: PageEvents = {
    output: new Listeners(),
    errors: new Listeners(),
    emotes: new Listeners(),
    configChanged: new Listeners(),
    proactive: new Listeners(),
    approvals: new Listeners(),
  }

  /** Set by WispProvider as the connection is resolved and the socket made. */
  socket: WispSocket | null = null
  endpoint: Endpoint | null = null
  token = ''
  /** Finds the server again (a desktop server that moved); set by WispProvider. */
  reresolve: () => void = () => undefined
  /** Sets the token the page uses (WispProvider's state: a new API client follows). */
  setToken: (token: string) => void = () => undefined
  /** Called when the page missed /ws frames: set by WispProvider to ask once per connection. */
  socketResync: () => void = () => this.resync()

  constructor(frames?: FrameScheduler) {
    this.voice = new Voice({ api: () => this.api.get(), notice: (message) => this.app.dispatch({ type: 'error', message }) })
    this.events.configChanged.add((paths) => this.voice.configChanged(paths))
    this.replies = new ReplyStore(frames)
    this.summaryLive = new SummaryLive(frames)
    this.summaries = new SummaryController({
      app: this.app,
      api: () => this.api.get(),
      live: this.summaryLive,
      changed: (conversationId) => this.meter.summaryChanged(conversationId),
      reload: () => this.chat.reload(),
    })
    this.chat = new ChatController({
      app: this.app,
      api: () => this.api.get(),
      sendWs: (msg) => this.sendWs(msg),
      replies: this.replies,
      onFrame: (frame, kind) => {
        this.approvals.onChatFrame(frame)
        this.voice.speech.onFrame(frame, kind)
      },
      onNewTurn: () => this.voice.speech.newTurn(),
      onStop: () => this.voice.speech.stop(),
      summaries: this.summaries,
    })
    this.meter.follow(this.app)
    // Another model, window or threshold: the meter of the same conversation changes.
    this.events.configChanged.add((paths) => {
      if (paths.length === 0 || paths.some((p) => p.startsWith('model.'))) void this.meter.refresh()
    })
    followReplyUsage(this.app, () => this.api.get())
    // Another conversation: the text of its summaries being written is not this one's.
    let open = this.app.get().chat.session
    this.app.subscribe(() => {
      const { session } = this.app.get().chat
      if (session !== open) this.summaryLive.clear()
      open = session
    })
  }

  readonly sendWs = (msg: ClientMessage): void => {
    this.socket?.send(msg)
  }

  setApi(api: ApiClient | null): void {
    this.api.set(api)
    this.approvals.setApi(api)
    this.mcp.setApi(api)
    this.memory.setApi(api?.memory ?? null)
    this.tasks.setApi(api?.tasks ?? null)
    void this.meter.refresh()
  }

  // ---- Actions components call ----

  readonly submitToken = (next: string): void => {
    const trimmed = next.trim()
    if (this.endpoint?.mode === 'browser') saveToken(trimmed)
    this.setToken(trimmed)
    this.socket?.setToken(trimmed)
    this.socket?.reconnectNow()
    this.app.dispatch({ type: 'token-submitted' })
  }

  /** Reloads /api/status now (after the provider changed). */
  readonly refreshStatus = async (): Promise<void> => {
    const api = this.api.get()
    if (api === null) return
    try {
      this.app.dispatch({ type: 'status-loaded', status: await api.getStatus() })
    } catch (err) {
      console.warn('wisp: status refresh failed', err)
    }
  }

  /** Opens or closes the provider form from the header. */
  readonly setProviderSetupOpen = (open: boolean): void => this.app.dispatch({ type: 'provider-setup', open })

  /** Restarts the agent to apply restart-only settings, and follows the server if it moved. */
  readonly restartAgent = async (): Promise<void> => {
    const api = this.api.get()
    const endpoint = this.endpoint
    if (api === null || endpoint === null) return
    this.app.dispatch({ type: 'restart-started' })
    try {
      const result = await api.restartAgent()
      this.app.dispatch({ type: 'restart-done', status: result.status })
      const plan = planAfterRestart(endpoint.mode, endpoint.baseURL, result.connection, window.location, this.token)
      if (plan.kind === 'navigate') window.location.assign(plan.url)
      else if (plan.kind === 'reresolve') this.reresolve()
    } catch (err) {
      this.app.dispatch({ type: 'restart-failed', message: errorMessage(err) })
      // The badge said "restarting"; show what the server says now.
      await this.refreshStatus()
    }
  }

  /** "Later" on the restart banner: hidden until the reasons change. */
  readonly dismissRestart = (): void => this.app.dispatch({ type: 'restart-dismissed' })

  /** Restart-only settings were saved (an answer of the settings API): shows the banner now. */
  readonly restartRequired = (reasons: string[]): void => this.app.dispatch({ type: 'restart-required', reasons })

  readonly onConfigChanged = (fn: (paths: string[]) => void): Unsubscribe => this.events.configChanged.add(fn)

  /** The Reminders panel's create and delete. */
  readonly reminders: ReminderActions = {
    create: async (req) => {
      const reminder = await this.client().createReminder(req)
      this.app.dispatch({ type: 'reminder-upserted', reminder })
    },
    remove: async (id) => {
      try {
        await this.client().deleteReminder(id)
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err
      }
      this.app.dispatch({ type: 'reminder-removed', id })
    },
  }

  /**
   * Opens conversationId at messageId on its branch and brings the message
   * into view, marked (a search result chosen, a citation in a reply
   * followed: markdown/citation.ts). A message that no longer exists is not
   * shown: the conversation opens as it is. A conversation the list does not
   * have (deleted, or a citation the model made up) is not opened: the
   * notice says so and the open chat stays. Returns whether it opened.
   */
  readonly openMessage = (conversationId: string, messageId: string): boolean => {
    const list = this.app.get().conversations
    if (list !== null && !list.some((c) => c.id === conversationId)) {
      this.app.dispatch({ type: 'error', message: 'That message is not in any conversation (it was deleted, or the link is wrong).' })
      return false
    }
    this.chat.show(conversationId, messageId)
    this.messageFocus.show(conversationId, messageId)
    return true
  }

  /** Searches all history (the search palette). */
  readonly search = async (q: string, opts: SearchOptions): Promise<SearchResults> => this.client().search(q, opts)

  /** Plays an emote on every window (the picker). */
  readonly playEmote = async (emoteId: string): Promise<void> => {
    await this.client().playEmote(emoteId)
  }

  /** Saves the provider; the form shows the answer. */
  readonly saveProvider = async (update: ProviderUpdate): Promise<ProviderInfo> => {
    const saved = await this.client().setProvider(update)
    this.provider.put(saved)
    return saved
  }

  /** Exports one conversation (or all for null) to a file the user keeps. */
  readonly exportConversations = async (id: string | null, format: ExportFormat): Promise<ExportOutcome> =>
    exportConversations(this.client(), id, format, pageSink())

  /** Imports a Wisp export or ChatGPT's conversations.json. */
  readonly importConversations = async (file: Blob): Promise<ImportResult> => this.client().importConversations(file)

  /** /ws traffic of terminal runs for the terminal panel. */
  readonly terminal: TerminalBridge = {
    clientId: tabClientId(),
    desktopToken: '',
    onOutput: (fn) => this.events.output.add(fn),
    onServerError: (fn) => this.events.errors.add(fn),
    sendInput: (runId, data, terminalToken) => this.socket?.sendTerminalInput(runId, data, terminalToken),
    sendResize: (runId, cols, rows) => this.socket?.sendTerminalResize(runId, cols, rows),
  }

  /** Emote frames for the avatar stage. */
  readonly emotes: EmoteBridge = { onEmote: (fn) => this.events.emotes.add(fn) }

  // ---- Loads and frames ----

  /** Loads /api/status; a 401 opens the token form. Stale answers (another client meanwhile) are dropped. */
  async loadStatus(api: ApiClient, cancelled: () => boolean): Promise<void> {
    try {
      const status = await api.getStatus()
      if (!cancelled()) this.app.dispatch({ type: 'status-loaded', status })
    } catch (err) {
      if (cancelled()) return
      if (isUnauthorized(err)) this.app.dispatch({ type: this.token === '' ? 'token-required' : 'token-rejected' })
      else this.app.dispatch({ type: 'error', message: errorMessage(err) })
    }
  }

  /** Loads the sidebar's list (unless cancelled meanwhile); a failure is shown as the app's error. */
  async loadConversations(cancelled: () => boolean = () => false): Promise<void> {
    const api = this.api.get()
    if (api === null) return
    try {
      const conversations = await api.listConversations()
      if (!cancelled()) this.app.dispatch({ type: 'conversations-loaded', conversations })
    } catch (err) {
      if (!cancelled()) this.app.dispatch({ type: 'error', message: `cannot load conversations: ${errorMessage(err)}` })
    }
  }

  /** Loads the Reminders panel's list (unless cancelled meanwhile). */
  async loadReminders(cancelled: () => boolean = () => false): Promise<void> {
    const api = this.api.get()
    if (api === null) return
    try {
      const reminders = await api.listReminders()
      if (!cancelled()) this.app.dispatch({ type: 'reminders-loaded', reminders })
    } catch (err) {
      if (!cancelled()) console.warn('wisp: cannot load reminders:', errorMessage(err))
    }
  }

  /**
   * A proactive message (docs/proactive.md): the open chat shows it, any
   * other conversation gets its unread mark, and a conversation the sidebar
   * does not know yet is fetched with the list.
   */
  receiveProactive(frame: ProactiveMessageFrame): void {
    const list = this.app.get().conversations
    this.app.dispatch({ type: 'proactive-message', conversationId: frame.conversationId, message: frame.message })
    if (list !== null && !list.some((c) => c.id === frame.conversationId)) void this.reloadConversationList()
    this.voice.proactive(frame.message.text)
    this.events.proactive.emit(frame)
  }

  /** An approval-requested or -decided frame. */
  receiveApproval(approval: Approval): void {
    this.approvals.receive(approval)
    this.events.approvals.emit(approval)
  }

  /**
   * /ws connected again after the first time: frames sent while it was down
   * are not replayed, so the lists and the open chat catch up.
   */
  reconnected(): void {
    if (this.api.get() === null || !this.app.get().apiReady) return
    void this.reloadConversationList()
    void this.chat.catchUpMessages()
    void this.tasks.reload()
  }

  /**
   * Catching up after /ws missed events (replay-truncated, or a drop for
   * lagging): reloads from the REST API what the page builds from /ws events,
   * the way it loads them at start-up; settings listeners hear that anything
   * may have changed. The "thinking…/replying…" marks of heartbeats that may
   * have been missed are dropped (the next heartbeat of a turn still going
   * sets its mark again). Envelopes missed from the Activity list cannot be
   * fetched again.
   */
  resync(): void {
    // Before the first load there is nothing to reload: start-up loads it all.
    if (this.api.get() === null || !this.app.get().apiReady) return
    this.app.dispatch({ type: 'turns-cleared' })
    void this.loadConversations()
    this.chat.reload()
    void this.loadReminders()
    void this.refreshStatus()
    void this.memory.refresh()
    void this.tasks.reload()
    void this.avatar.load() // a missed avatar-changed
    this.events.configChanged.emit([])
  }

  private async reloadConversationList(): Promise<void> {
    const api = this.api.get()
    if (api === null) return
    try {
      this.app.dispatch({ type: 'conversations-loaded', conversations: await api.listConversations() })
    } catch (err) {
      console.warn('wisp: cannot reload the conversations:', errorMessage(err))
    }
  }

  private client(): ApiClient {
    const api = this.api.get()
    if (api === null) throw new ApiError(0, 'not connected to the Wisp server yet')
    return api
  }
}
