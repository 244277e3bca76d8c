import { describe, expect, it } from 'vitest'
import { FIRST_STEP, MAX_STEP, MIN_STEP, RevealPace, STEP_MS, revealEnd } from './reveal'

describe('revealEnd', () => {
  const cases: { name: string; text: string; shown: number; budget: number; want: number }[] = [
    { name: 'all when within the budget', text: 'hello world', shown: 0, budget: 64, want: 11 },
    { name: 'all when exactly the budget more', text: 'abcdef', shown: 2, budget: 4, want: 6 },
    { name: 'cut after the last space', text: 'one two three four', shown: 0, budget: 10, want: 8 },
    { name: 'cut after a newline', text: 'one\ntwothree four', shown: 0, budget: 10, want: 4 },
    { name: 'a space right at the limit counts', text: 'abcd efgh', shown: 0, budget: 5, want: 5 },
    { name: 'from where it was shown', text: 'aa bb cc dd ee', shown: 3, budget: 5, want: 6 },
    { name: 'no space: cut at the budget', text: 'abcdefghij', shown: 0, budget: 4, want: 4 },
    { name: 'no space: not inside a surrogate pair', text: 'abc\u{1F600}defgh', shown: 0, budget: 4, want: 3 },
    { name: 'no space: not inside \\r\\n', text: 'abc\r\ndefgh', shown: 0, budget: 4, want: 3 },
    { name: 'a pair at the start still moves on', text: '\u{1F600}\u{1F600}\u{1F600}', shown: 0, budget: 1, want: 2 },
    { name: 'shown beyond the text', text: 'abc', shown: 10, budget: 1, want: 3 },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(revealEnd(c.text, c.shown, c.budget)).toBe(c.want)
    })
  }

  it('always moves forward and ends at the text', () => {
    const text = 'x\u{1F600}\r\n'.repeat(500) + ' word'.repeat(300)
    for (const budget of [1, 2, 3, 7, 64]) {
      let shown = 0
      let steps = 0
      while (shown < text.length) {
        const end = revealEnd(text, shown, budget)
        expect(end).toBeGreaterThan(shown)
        expect(end - shown).toBeLessThanOrEqual(budget + 1)
        const c = text.charCodeAt(end - 1)
        if (end < text.length) expect(c >= 0xd800 && c <= 0xdbff).toBe(false)
        shown = end
        steps++
      }
      expect(shown).toBe(text.length)
      expect(steps).toBeGreaterThanOrEqual(Math.floor(text.length / (budget + 1)))
    }
  })
})

describe('RevealPace', () => {
  const cases: { name: string; chars: number; ms: number; want: number }[] = [
    { name: 'slow parsing: a small step', chars: 4000, ms: 40, want: 100 * STEP_MS },
    { name: 'very slow: never below the minimum', chars: 4000, ms: 400, want: MIN_STEP },
    { name: 'fast: the maximum', chars: 4000, ms: 0.5, want: MAX_STEP },
    { name: 'too little to time: unchanged', chars: MIN_STEP - 1, ms: 100, want: FIRST_STEP },
    { name: 'no time at all: the maximum', chars: 4000, ms: 0, want: MAX_STEP },
  ]
  for (const c of cases) {
    it(c.name, () => {
      const pace = new RevealPace()
      expect(pace.step).toBe(FIRST_STEP)
      pace.measured(c.chars, c.ms)
      expect(pace.step).toBe(c.want)
    })
  }
})
