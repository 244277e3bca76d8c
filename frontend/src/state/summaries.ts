// The summaries of older messages the open conversation shows ("Earlier in
// this conversation"), outside React. Their saved state is the chat slice's
// (ChatState.summaries, through the reducer's chat-summary action); the text
// of a summary being written is a Store of its own (SummaryLive), folded once
// per animation frame like a reply's, so a delta re-renders only its row.
// Frames come from a turn's stream (ChatController hands them here), from a
// regenerate's run (read here) and from /ws conversation-summary (other
// windows). Regenerate and Undo are the row's buttons.

import type { ApiClient, ChatFrame, ConversationSummaryMessage, Summary } from '../api'
import type { AppStore } from './appStore'
import { errorMessage } from './chatRunner'
import { afterAnimationFrames, type FrameScheduler } from './replyStore'
import { Store } from './store'

export type SummaryFrame = Extract<ChatFrame, { type: 'summary_start' | 'summary_delta' | 'summary_end' }>

export function isSummaryFrame(frame: ChatFrame): frame is SummaryFrame {
  return frame.type === 'summary_start' || frame.type === 'summary_delta' || frame.type === 'summary_end'
}

export interface SummaryLiveState {
  /** The text so far of each summary being written, by id. */
  text: ReadonlyMap<string, string>
  /** Summaries whose regenerate or undo is on its way (their buttons wait). */
  busy: ReadonlySet<string>
}

/** The live side of the summaries: text being written, and the requests on their way. */
export class SummaryLive extends Store<SummaryLiveState> {
  private readonly queued = new Map<string, string>()
  private cancelFrame: (() => void) | null = null
  private readonly schedule: FrameScheduler

  constructor(schedule: FrameScheduler = afterAnimationFrames) {
    super({ text: new Map(), busy: new Set() })
    this.schedule = schedule
  }

  /** A summary starts being written from text (now). */
  begin(id: string, text: string): void {
    this.queued.delete(id)
    this.patch({ text: new Map(this.get().text).set(id, text) })
  }

  /** More text of a summary being written (begun first; others are dropped); it shows at the next frame. */
  append(id: string, text: string): void {
    if (!this.get().text.has(id) && !this.queued.has(id)) return
    this.queued.set(id, (this.queued.get(id) ?? '') + text)
    this.cancelFrame ??= this.schedule(() => {
      this.cancelFrame = null
      this.flush()
    })
  }

  /** Folds the queued text now. */
  flush(): void {
    this.cancelFrame?.()
    this.cancelFrame = null
    if (this.queued.size === 0) return
    const text = new Map(this.get().text)
    for (const [id, more] of this.queued) {
      const prev = text.get(id)
      if (prev !== undefined) text.set(id, prev + more)
    }
    this.queued.clear()
    this.patch({ text })
  }

  /** The summary is written (its saved text is the chat state's now). */
  end(id: string): void {
    this.queued.delete(id)
    if (!this.get().text.has(id)) return
    const text = new Map(this.get().text)
    text.delete(id)
    this.patch({ text })
  }

  setBusy(id: string, busy: boolean): void {
    const set = new Set(this.get().busy)
    if (busy) set.add(id)
    else set.delete(id)
    this.patch({ busy: set })
  }

  /** Forgets everything (another conversation opened). */
  clear(): void {
    this.cancelFrame?.()
    this.cancelFrame = null
    this.queued.clear()
    this.set({ text: new Map(), busy: new Set() })
  }
}

export interface SummaryDeps {
  app: AppStore
  api(): ApiClient | null
  live: SummaryLive
  /** A summary of the conversation changed (the meter reads the context again). */
  changed?(conversationId: string): void
  /** Reads the open conversation again (a regenerate's run ended without saying how its summary ended). */
  reload?(): void
}

export interface SummaryActions {
  /** Makes the summary again; its text streams into the row. */
  regenerate(summaryId: string): void
  /** Undoes the summary: the model's context uses the messages again; the row goes. */
  undo(summaryId: string): void
}

/** What the summaries' frames and buttons do. */
export class SummaryController implements SummaryActions {
  private readonly deps: SummaryDeps

  constructor(deps: SummaryDeps) {
    this.deps = deps
  }

  /** A summary frame of a stream (a turn's, or a regenerate's). */
  readonly take = (frame: SummaryFrame): void => {
    const { live } = this.deps
    switch (frame.type) {
      case 'summary_start':
        live.begin(frame.summary.id, frame.summary.text)
        this.saved(frame.summary)
        break
      case 'summary_delta':
        live.append(frame.summaryId, frame.text)
        break
      case 'summary_end':
        live.flush()
        live.end(frame.summary.id)
        this.saved(frame.summary)
        this.deps.changed?.(frame.summary.conversationId)
        break
    }
  }

  /** /ws conversation-summary: another window (or the server) made, failed or undid a summary. */
  readonly received = (msg: ConversationSummaryMessage): void => {
    const { summary } = msg
    const writing = this.deps.live.get().text.has(summary.id)
    // This page follows its stream: the frame says no more than the stream does.
    if (summary.status === 'streaming' && writing) return
    if (summary.status !== 'streaming') this.deps.live.end(summary.id)
    this.saved(summary)
    this.deps.changed?.(msg.conversationId)
  }

  readonly regenerate = (summaryId: string): void => {
    void this.regenerateNow(summaryId)
  }

  readonly undo = (summaryId: string): void => {
    void this.undoNow(summaryId)
  }

  private saved(summary: Summary): void {
    this.deps.app.dispatch({ type: 'chat-summary', summary })
  }

  private target(summaryId: string): { api: ApiClient; conversationId: string } | null {
    const api = this.deps.api()
    const { conversationId, summaries } = this.deps.app.get().chat
    if (api === null || conversationId === null || this.deps.live.get().busy.has(summaryId)) return null
    return summaries.some((s) => s.id === summaryId) ? { api, conversationId } : null
  }

  private async regenerateNow(summaryId: string): Promise<void> {
    const t = this.target(summaryId)
    if (t === null) return
    const { live } = this.deps
    live.setBusy(summaryId, true)
    try {
      const { runId, summary } = await t.api.context.regenerateSummary(t.conversationId, summaryId)
      this.take({ type: 'summary_start', summary })
      const stream = await t.api.context.streamSummary(runId)
      let ended = false
      for await (const { frame } of stream.frames) {
        if (isSummaryFrame(frame)) this.take(frame)
        ended = frame.type === 'summary_end'
        if (ended || frame.type === 'done' || frame.type === 'error') break
      }
      // The run had ended already (204), or ended without its summary_end: the saved summary says how.
      if (!ended) this.deps.reload?.()
    } catch (err) {
      this.deps.app.dispatch({ type: 'error', message: `Could not make the summary again: ${errorMessage(err)}` })
    } finally {
      live.flush()
      live.setBusy(summaryId, false)
    }
  }

  private async undoNow(summaryId: string): Promise<void> {
    const t = this.target(summaryId)
    if (t === null) return
    const { live } = this.deps
    live.setBusy(summaryId, true)
    try {
      const summary = await t.api.context.undoSummary(t.conversationId, summaryId)
      live.end(summaryId)
      this.saved(summary)
      this.deps.changed?.(t.conversationId)
    } catch (err) {
      this.deps.app.dispatch({ type: 'error', message: `Could not undo the summary: ${errorMessage(err)}` })
    } finally {
      live.setBusy(summaryId, false)
    }
  }
}
