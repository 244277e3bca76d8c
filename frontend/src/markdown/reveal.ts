// How much of a growing text to show this frame. A reply can arrive faster
// than it can be drawn (a resume hands over the whole reply so far at once; a
// fast model or a tab coming back from the background delivers thousands of
// tokens in one frame), and parsing, laying out and painting all of it in one
// task would block input for as long. So a message shows at most a step of
// new characters per animation frame and catches up over the next frames.
// The step is sized from how fast the last ones parsed (RevealPace): small
// while the parser's code is still cold or the machine busy, large once it
// is fast. A model streams well under 1 KB/s, far below the smallest step,
// so a live reply is never held back; only a backlog is spread out. Pure.

/** The parse time a step aims for, in ms; laying out and painting it take about as long again. */
export const STEP_MS = 6
/** The first step, and the bounds of every step, in characters. */
export const FIRST_STEP = 2048
export const MIN_STEP = 512
export const MAX_STEP = 8192

/** The size of the next reveal step, from how fast the last ones parsed. */
export class RevealPace {
  step = FIRST_STEP

  /** A step had `chars` characters parsed in `ms`: the next one is sized to take about STEP_MS. */
  measured(chars: number, ms: number): void {
    if (chars < MIN_STEP) return // too little to time
    const perMs = chars / Math.max(ms, 0.1)
    this.step = Math.min(MAX_STEP, Math.max(MIN_STEP, Math.round(perMs * STEP_MS)))
  }
}

/**
 * The end of the part of text to show, given that its first `shown`
 * characters are on screen: all of it when at most `budget` more, otherwise
 * a cut at most `budget` further, after the last space or newline in that
 * stretch (so a word is not drawn in halves), never inside a surrogate pair
 * or a "\r\n". Always more than `shown` when text is longer.
 */
export function revealEnd(text: string, shown: number, budget: number): number {
  const from = Math.max(0, Math.min(shown, text.length))
  if (text.length - from <= budget) return text.length
  const limit = from + Math.max(1, budget)
  const space = Math.max(text.lastIndexOf(' ', limit - 1), text.lastIndexOf('\n', limit - 1))
  if (space >= from) return space + 1
  let end = limit
  const before = text.charCodeAt(end - 1)
  if ((before >= 0xd800 && before <= 0xdbff) || (before === 0x0d && text.charCodeAt(end) === 0x0a)) end--
  return end > from ? end : limit + 1
}
