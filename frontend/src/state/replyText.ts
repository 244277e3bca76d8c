// The visible text of a reply, folded from its frames (docs/chat.md, "The
// delta dialect"). A reply is a list of segments: model text appends to a
// segment, an action's callback replaces its own segment, and what the bubble
// shows is the non-empty segments joined with a blank line. Pure.

import type { ChatFrame } from '../api'

export interface ReplyText {
  /**
   * The text of each segment; null when the text did not come from segments
   * (a reply loaded from the server, or the older dialect's fullText).
   */
  segments: readonly string[] | null
  /** What the bubble shows. */
  text: string
}

export const SEGMENT_SEPARATOR = '\n\n'

/** The visible reply of a segment list: its non-empty segments joined with a blank line. */
export function visibleText(segments: readonly string[]): string {
  return segments.filter((s) => s !== '').join(SEGMENT_SEPARATOR)
}

/**
 * Applies the text frames, in order, to a reply:
 * - token: appends to segment `segment` (0 when absent); a callback replaces
 *   it; segments up to it that never got text count as "". A token of the
 *   older dialect carries the whole reply in fullText, which wins.
 * - reply: a resumed stream's reply so far replaces the segment list.
 * - done: its fullText is the final reply.
 * Other frames leave the text alone. Tokens that start from a reply whose
 * segments are unknown (null) start from no segments: that stream begins at
 * the run's first frame. The visible text is joined once, at the end, so a
 * burst of many tokens costs one join.
 */
export function foldReplyText(start: ReplyText, frames: Iterable<ChatFrame>): ReplyText {
  // The list is copied once, on the first token, and then changed in place.
  let segments: string[] | null = null
  let known = start.segments !== null
  let text = start.text
  /** text is out of date: join the segments at the end. */
  let joinAtEnd = false
  let changed = false
  for (const frame of frames) {
    if (frame.type !== 'token' && frame.type !== 'reply' && frame.type !== 'done') continue
    changed = true
    if (frame.type === 'reply') {
      segments = [...frame.segments]
      known = true
      text = frame.fullText
      joinAtEnd = false
    } else if (frame.type === 'done') {
      text = frame.fullText
      joinAtEnd = false
    } else if (frame.fullText !== undefined) {
      // A token of the older dialect: the whole reply, authoritative; segments unknown.
      segments = null
      known = false
      text = frame.fullText
      joinAtEnd = false
    } else {
      segments ??= known && start.segments !== null ? [...start.segments] : []
      known = true
      const i = frame.segment ?? 0
      while (segments.length <= i) segments.push('')
      segments[i] = frame.callback === true ? frame.text : segments[i] + frame.text
      joinAtEnd = true
    }
  }
  if (!changed) return start
  const list = known ? (segments ?? start.segments) : null
  return { segments: list, text: joinAtEnd && list !== null ? visibleText(list) : text }
}
