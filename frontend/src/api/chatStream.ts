// The reply stream of a chat run: an SSE response turned into typed frames
// with their sequence numbers (docs/chat.md, SSE).

import { decodeChatFrame } from './chatDecode'
import type { SeqFrame } from './chatTypes'
import { readSseChunks, SliceClock, type ReadSseOptions, type SseEvent } from './sse'

export interface ChatStream {
  /** X-Wisp-Run-Id of a new run, or the run being resumed; null if the server did not say. */
  runId: string | null
  /**
   * The server answered a resume with 204: the run has ended and has nothing
   * after the sequence number asked for. frames is then empty, and the reply
   * is read from the saved messages instead.
   */
  runEnded: boolean
  /**
   * X-Wisp-Message-Id of an edit or a regenerate: the new user message, or the
   * new reply; absent or null when the server did not say (a send, a resume).
   */
  messageId?: string | null
  /** Frames in order; ends after done or error, or throws when the connection breaks. */
  frames: AsyncGenerator<SeqFrame, void, undefined>
}

/** The dialect of docs/chat.md this client asks for: token frames carry only what changed. */
export const CHAT_DIALECT = 'delta'

export const RUN_ID_HEADER = 'X-Wisp-Run-Id'

export const MESSAGE_ID_HEADER = 'X-Wisp-Message-Id'

/** The SSE id: of a frame as a sequence number, or null when it is not one. */
export function parseSeq(id: string | null): number | null {
  if (id === null || !/^\d+$/.test(id)) return null
  const n = Number(id)
  return Number.isSafeInteger(n) ? n : null
}

/** A stream with no frames: what a 204 answer to a resume means. */
export async function* noFrames(): AsyncGenerator<SeqFrame, void, undefined> {}

/**
 * Frames of an event stream body. Unknown or malformed frames are skipped with
 * a warning. A read's frames are handed on in slices of about opts.sliceMs
 * (the consumer's work on them included), with a yield to the event loop
 * between them, as readSse does; one level of async iteration per frame.
 */
export async function* chatFrames(
  body: ReadableStream<Uint8Array>,
  opts: ReadSseOptions = {},
): AsyncGenerator<SeqFrame, void, undefined> {
  for await (const events of readSseChunks(body, opts)) {
    const clock = new SliceClock(opts.sliceMs)
    for (const ev of events) {
      if (clock.due) await clock.pause()
      const frame = chatFrame(ev)
      if (frame === null) continue
      yield frame
      if (frame.frame.type === 'done' || frame.frame.type === 'error') return
    }
  }
}

/** The frame an event carries, or null (a comment, or a frame that is not JSON or not known). */
function chatFrame(ev: SseEvent): SeqFrame | null {
  if (ev.kind !== 'event') return null
  let json: unknown
  try {
    json = JSON.parse(ev.data)
  } catch {
    console.warn('wisp chat: frame is not JSON', ev.data.slice(0, 200))
    return null
  }
  const frame = decodeChatFrame(json)
  if (frame === null) {
    console.warn('wisp chat: ignored frame', ev.data.slice(0, 200))
    return null
  }
  return { seq: parseSeq(ev.id), frame }
}
