// Drives one streaming reply: opens the stream (a new message, an edit, a
// regenerate, or a run to resume), reports each frame, and when the connection drops mid-run
// resumes with GET /api/runs/{id}/stream?after=<last seq> a few times
// before giving up; a resume answered 204 (the run ended with nothing more
// to send) ends it without an error. No React here; the hook (useChat)
// turns the reports into store updates and reducer actions.

import { ApiError, type ChatFrame, type ChatRequest, type ChatStream, type StreamOptions } from '../api'

export interface ReplyApi {
  streamMessage(conversationId: string, req: ChatRequest, opts?: StreamOptions): Promise<ChatStream>
  streamRun(runId: string, after: number, opts?: StreamOptions): Promise<ChatStream>
  editMessage(conversationId: string, messageId: string, req: ChatRequest, opts?: StreamOptions): Promise<ChatStream>
  regenerate(conversationId: string, messageId: string, opts?: StreamOptions): Promise<ChatStream>
}

export type ReplyStart =
  | { kind: 'send'; conversationId: string; request: ChatRequest }
  | { kind: 'resume'; runId: string; after: number }
  /** A new branch: request's text as a sibling of the user message messageId. */
  | { kind: 'edit'; conversationId: string; messageId: string; request: ChatRequest }
  /** Another reply beside the assistant message messageId. */
  | { kind: 'regenerate'; conversationId: string; messageId: string }

/** A start that makes a new run (every kind but a resume). */
export type NewReplyStart = Exclude<ReplyStart, { kind: 'resume' }>

export type ReplyReport =
  | { type: 'run'; runId: string }
  /** The message an edit or a regenerate made (X-Wisp-Message-Id): the new user message, or the new reply. */
  | { type: 'message'; messageId: string }
  | { type: 'frame'; seq: number | null; frame: ChatFrame }
  | { type: 'failed'; message: string }
  /** A resume was answered 204: the run has ended and had nothing more to send; its saved message has the rest. */
  | { type: 'ended' }

export type ReplyOutcome = 'done' | 'error' | 'failed' | 'ended' | 'aborted'

export interface RunReplyOptions {
  api: ReplyApi
  start: ReplyStart
  signal: AbortSignal
  report(r: ReplyReport): void
  /** Waits before each resume attempt; attempts stop when they run out. */
  resumeDelaysMs?: readonly number[]
  sleep?(ms: number, signal: AbortSignal): Promise<void>
  /**
   * Finds the id of the run when the stream did not say it (a cross-origin
   * page cannot read X-Wisp-Run-Id unless the server exposes it).
   */
  findRunId?(): Promise<string | null>
}

export const RESUME_DELAYS_MS = [500, 1_500, 4_000] as const

/** A dropped connection or a gateway error may heal; a refusal (4xx, 503) will not. */
export function mayResume(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 0 || err.status === 502 || err.status === 504)
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms)
    function done() {
      clearTimeout(timer)
      signal.removeEventListener('abort', done)
      resolve()
    }
    signal.addEventListener('abort', done)
  })
}

function openReply(api: ReplyApi, start: NewReplyStart, signal: AbortSignal): Promise<ChatStream> {
  switch (start.kind) {
    case 'send':
      return api.streamMessage(start.conversationId, start.request, { signal })
    case 'edit':
      return api.editMessage(start.conversationId, start.messageId, start.request, { signal })
    case 'regenerate':
      return api.regenerate(start.conversationId, start.messageId, { signal })
  }
}

export async function runReply(opts: RunReplyOptions): Promise<ReplyOutcome> {
  const { api, start, signal, report } = opts
  const delays = opts.resumeDelaysMs ?? RESUME_DELAYS_MS
  const sleep = opts.sleep ?? abortableSleep
  let runId = start.kind === 'resume' ? start.runId : null
  let lastSeq = start.kind === 'resume' ? start.after : 0
  let opened = false
  let attempt = 0

  const learnRun = (id: string | null) => {
    if (id === null || id === '' || id === runId) return
    runId = id
    report({ type: 'run', runId: id })
  }

  for (;;) {
    try {
      let stream: ChatStream
      if (!opened && start.kind !== 'resume') {
        stream = await openReply(api, start, signal)
        if (stream.messageId != null && stream.messageId !== '') report({ type: 'message', messageId: stream.messageId })
      } else if (runId !== null) {
        stream = await api.streamRun(runId, lastSeq, { signal })
      } else {
        throw new ApiError(0, 'lost the reply and cannot resume it: the server did not name its run')
      }
      opened = true
      if (signal.aborted) return 'aborted'
      learnRun(stream.runId)
      if (stream.runEnded) {
        report({ type: 'ended' })
        return 'ended'
      }
      for await (const { seq, frame } of stream.frames) {
        if (signal.aborted) return 'aborted'
        attempt = 0
        if (seq !== null) lastSeq = Math.max(lastSeq, seq)
        if (frame.type === 'done') learnRun(frame.runId)
        report({ type: 'frame', seq, frame })
        if (frame.type === 'done') return 'done'
        if (frame.type === 'error') return 'error'
      }
      throw new ApiError(0, 'the reply stream ended before the reply did')
    } catch (err) {
      if (signal.aborted) return 'aborted'
      const delay = delays[attempt]
      if (runId === null && opened && mayResume(err) && opts.findRunId !== undefined) {
        learnRun(await opts.findRunId().catch(() => null))
        if (signal.aborted) return 'aborted'
      }
      if (runId === null || !mayResume(err) || delay === undefined) {
        report({ type: 'failed', message: errorMessage(err) })
        return 'failed'
      }
      opened = true
      attempt++
      await sleep(delay, signal)
      if (signal.aborted) return 'aborted'
    }
  }
}
