// Warms, while the page is idle after it loads, the code the first reply
// needs: V8 compiles a function the first time it runs and the browser loads
// locale data the first time a date is formatted, which made the task that
// draws a reply's first text take tens of milliseconds more than the ones
// after it. Each step runs in its own idle period, so none delays input.

import { formatTimestamp } from './format'
import { updateText } from './markdown/blocks'
import { chatParser } from './markdown/parser'
import { renderTokens } from './markdown/render'
import { revealEnd } from './markdown/reveal'

/** A reply using the markup models write most: blocks, inline marks, a list, a table, code. */
const SAMPLE = [
  '# Title\n\nSome **bold**, *em*, `code`, ~~gone~~ and a [link](https://example.com) or www.example.com.',
  '- one\n- [x] two\n  1. three',
  '> quoted\n\n| a | b |\n|---|:-:|\n| 1 | 2 |',
  '```js\nconst x = 1\n```\n\nDone.',
].join('\n\n')

export const WARM_STEPS: readonly (() => void)[] = [
  () => formatTimestamp(Date.now()),
  () => {
    // As a streamed reply is parsed: a first part, then the rest reusing it.
    const half = revealEnd(SAMPLE, 0, SAMPLE.length >> 1)
    const first = updateText(chatParser, null, SAMPLE.slice(0, half))
    const whole = updateText(chatParser, first, SAMPLE)
    for (const block of whole.blocks) renderTokens(block.tokens, { breaks: chatParser.options.breaks })
  },
]

/** Runs fn when the page is next idle (or soon, where there is no requestIdleCallback). */
type IdleScheduler = (fn: () => void) => void

const whenIdle: IdleScheduler = (fn) => {
  if (typeof requestIdleCallback === 'function') requestIdleCallback(fn, { timeout: 5000 })
  else setTimeout(fn, 200)
}

/** Runs the warm-up steps, one per idle period. A step that throws is skipped: warming is only ever an optimisation. */
export function warmUpWhenIdle(schedule: IdleScheduler = whenIdle, steps: readonly (() => void)[] = WARM_STEPS): void {
  const next = (i: number) => {
    if (i >= steps.length) return
    schedule(() => {
      try {
        steps[i]?.()
      } catch {
        // ignored: see above
      }
      next(i + 1)
    })
  }
  next(0)
}
