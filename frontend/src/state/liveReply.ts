// What the frames of a streaming reply change in its bubble: the text (by
// segments), the thinking, the tool cards and the last sequence number seen.
// While a reply streams this lives in the ReplyStore, outside the app state,
// so a token re-renders only its bubble; when the reply ends it is written
// back into the bubble of the app state. Pure.

import type { ChatFrame, SeqFrame } from '../api'
import type { ChatMessageView, ToolView } from './chatView'
import { foldReplyText } from './replyText'

export interface LiveReply {
  /** Segment texts of the reply (see replyText.ts); null when they are not known. */
  segments: readonly string[] | null
  text: string
  thinking: string
  tools: ToolView[]
  /** Highest frame sequence number applied; frames at or below it are repeats. */
  lastSeq: number
}

/** The frames a streaming reply takes in its ReplyStore entry; done and error end it in the app state. */
export type LiveFrame = Extract<
  ChatFrame,
  {
    type:
      | 'token'
      | 'reply'
      | 'thinking'
      | 'tool_start'
      | 'tool_end'
      | 'tool_status'
      | 'run_paused'
      | 'run_resumed'
      | 'stream_resync'
      | 'custom'
      | 'state_patch'
  }
>

export function isLiveFrame(frame: ChatFrame): frame is LiveFrame {
  // A summary's frames are its row's (summaries.ts), not the reply's.
  return frame.type !== 'done' && frame.type !== 'error' && !frame.type.startsWith('summary_')
}

export const EMPTY_LIVE_REPLY: LiveReply = { segments: null, text: '', thinking: '', tools: [], lastSeq: 0 }

/** The live part of a bubble. */
export function liveOf(b: ChatMessageView): LiveReply {
  return { segments: b.segments ?? null, text: b.text, thinking: b.thinking, tools: b.tools, lastSeq: b.lastSeq }
}

/** The bubble showing a live reply. */
export function withLive(b: ChatMessageView, live: LiveReply): ChatMessageView {
  if (
    b.text === live.text &&
    (b.segments ?? null) === live.segments &&
    b.thinking === live.thinking &&
    b.tools === live.tools &&
    b.lastSeq === live.lastSeq &&
    b.live
  ) {
    return b
  }
  return { ...b, ...live, live: true }
}

export function upsertTool(tools: ToolView[], callId: string, change: (prev: ToolView | undefined) => ToolView): ToolView[] {
  const i = tools.findIndex((t) => t.callId === callId)
  if (i < 0) return [...tools, change(undefined)]
  const next = tools.slice()
  next[i] = change(tools[i])
  return next
}

type ToolFrame = Extract<ChatFrame, { type: 'tool_start' | 'tool_end' | 'tool_status' }>

function applyTool(tools: ToolView[], frame: ToolFrame): ToolView[] {
  if (frame.type === 'tool_start') {
    return upsertTool(tools, frame.callId, (prev) => ({
      ...prev,
      callId: frame.callId,
      name: frame.name,
      arguments: frame.arguments,
      status: 'executing',
    }))
  }
  if (frame.type === 'tool_status') {
    return upsertTool(tools, frame.callId, (prev) => {
      const name = frame.name || (prev?.name ?? '')
      const tool: ToolView = { arguments: {}, ...prev, callId: frame.callId, name, status: frame.status }
      if (frame.terminalRunId !== undefined) tool.terminalRunId = frame.terminalRunId
      return tool
    })
  }
  return upsertTool(tools, frame.callId, (prev) => {
    const tool: ToolView = {
      callId: frame.callId,
      name: frame.name,
      arguments: prev?.arguments ?? {},
      // A call the user declined or stopped ends cancelled, whatever it returned.
      status: prev?.status === 'cancelled' ? 'cancelled' : frame.error === undefined ? 'completed' : 'failed',
    }
    if (frame.result !== undefined) tool.result = frame.result
    if (frame.error !== undefined) tool.error = frame.error
    if (prev?.terminalRunId !== undefined) tool.terminalRunId = prev.terminalRunId
    return tool
  })
}

/**
 * A frame at or below the last sequence number applied repeats one already
 * seen, except a reply: it is the whole text so far, numbered by the newest
 * text event it reflects, which may be older than the thinking and tool
 * frames a resume sends before it. Frames without a number always apply.
 */
export function isRepeat(lastSeq: number, seq: number | null, frame: ChatFrame): boolean {
  return seq !== null && seq <= lastSeq && frame.type !== 'reply'
}

/**
 * Applies frames in order: text frames through foldReplyText, thinking
 * appended, tool cards by call id; repeats are skipped. Returns live itself
 * when nothing changed.
 */
export function foldLive(live: LiveReply, frames: Iterable<SeqFrame>): LiveReply {
  let { lastSeq, thinking, tools } = live
  const textFrames: ChatFrame[] = []
  for (const { seq, frame } of frames) {
    if (isRepeat(lastSeq, seq, frame)) continue
    if (seq !== null) lastSeq = Math.max(lastSeq, seq)
    switch (frame.type) {
      case 'token':
      case 'reply':
      case 'done':
        textFrames.push(frame)
        break
      case 'thinking':
        thinking += frame.text
        break
      case 'tool_start':
      case 'tool_end':
      case 'tool_status':
        tools = applyTool(tools, frame)
        break
      case 'run_paused':
      case 'run_resumed':
        // The approval card shows these (approvals.ts); the text does not change.
        break
      case 'custom':
      case 'state_patch':
        // For other clients following the run (docs/chat.md): the bubble shows an
        // action's progress through its callbacks.
      case 'stream_resync':
      case 'error':
      // A clause to speak (voice/speech.ts): its text came in the token frames.
      case 'speech':
        break
    }
  }
  const { segments, text } = foldReplyText(live, textFrames)
  if (
    lastSeq === live.lastSeq &&
    thinking === live.thinking &&
    tools === live.tools &&
    text === live.text &&
    segments === live.segments
  ) {
    return live
  }
  return { segments, text, thinking, tools, lastSeq }
}
