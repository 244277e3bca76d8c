import { afterEach, describe, expect, it, vi } from 'vitest'
import { MAX_MARKS, countHidden, escapeHidden, hiddenName, hiddenTitle, revealHidden, type HiddenKind, type HiddenMark } from './hiddenChars'

const marks = (text: string) => revealHidden(text).pieces.filter((p): p is HiddenMark => typeof p !== 'string')

describe('hidden characters', () => {
  const cases: { name: string; text: string; shown: string; hidden: number; kinds?: HiddenKind[] }[] = [
    { name: 'plain ASCII', text: 'git status && rm -rf build', shown: 'git status && rm -rf build', hidden: 0 },
    {
      name: 'letters of every script, right-to-left ones too',
      text: 'café naïve 日本語 שלום مرحبا Ωμέγα',
      shown: 'café naïve 日本語 שלום مرحبا Ωμέγα',
      hidden: 0,
    },
    { name: 'a tab stays', text: 'a\tb', shown: 'a\tb', hidden: 0 },
    { name: 'a line feed is marked, not counted', text: 'ls\nrm x', shown: 'ls\\nrm x', hidden: 0, kinds: ['newline'] },
    { name: 'right-to-left override in a comment', text: 'ls # \u202e hidden', shown: 'ls # \\u202e hidden', hidden: 1, kinds: ['bidi'] },
    { name: 'zero width space inside a word', text: 'r\u200bm -rf x', shown: 'r\\u200bm -rf x', hidden: 1, kinds: ['invisible'] },
    {
      name: 'C0 controls, DEL and C1 controls',
      text: '\x00\x07\x1b[31m\r\x0b\x7f\x85\x9b',
      shown: '\\x00\\x07\\x1b[31m\\r\\x0b\\x7f\\x85\\x9b',
      hidden: 8,
    },
    {
      name: 'every bidi control',
      text: '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069',
      shown: '\\u061c\\u200e\\u200f\\u202a\\u202b\\u202c\\u202d\\u202e\\u2066\\u2067\\u2068\\u2069',
      hidden: 12,
    },
    {
      name: 'zero-width and invisible ones',
      text: 'a\u00ad\u034f\u115f\u1160\u17b4\u180e\u200b\u200c\u2060\u2061\u2062\u2063\u2064\u206a\u3164\ufeff\uffa0\ufff9\u2800b',
      shown:
        'a\\u00ad\\u034f\\u115f\\u1160\\u17b4\\u180e\\u200b\\u200c\\u2060\\u2061\\u2062\\u2063\\u2064\\u206a\\u3164\\ufeff\\uffa0\\ufff9\\u2800b',
      hidden: 19,
    },
    {
      name: 'spaces that are not a space, and line separators',
      text: 'ls\u00a0-la\u1680\u2000\u2007\u200a\u202f\u205f\u3000\u2028\u2029',
      shown: 'ls\\u00a0-la\\u1680\\u2000\\u2007\\u200a\\u202f\\u205f\\u3000\\u2028\\u2029',
      hidden: 10,
    },
    {
      name: 'tag characters (astral), hiding "Hi"',
      text: 'ok\u{e0001}\u{e0048}\u{e0069}\u{e007f}',
      shown: 'ok\\u{e0001}\\u{e0048}\\u{e0069}\\u{e007f}',
      hidden: 4,
      kinds: ['tag', 'tag', 'tag', 'tag'],
    },
    {
      name: 'a subdivision flag keeps its black flag, its tags are flagged',
      text: '\u{1f3f4}\u{e0067}\u{e0062}\u{e0065}\u{e006e}\u{e0067}\u{e007f}',
      shown: '\u{1f3f4}\\u{e0067}\\u{e0062}\\u{e0065}\\u{e006e}\\u{e0067}\\u{e007f}',
      hidden: 6,
    },
    { name: 'a surrogate pair is one character', text: 'x\u{1f600}\u200by', shown: 'x\u{1f600}\\u200by', hidden: 1 },
    { name: 'lone surrogates', text: 'a\ud800b\udc00', shown: 'a\\ud800b\\udc00', hidden: 2, kinds: ['invalid', 'invalid'] },
    { name: 'an emoji with its variation selector', text: 'I \u2764\ufe0f it', shown: 'I \u2764\ufe0f it', hidden: 0 },
    { name: 'a keycap', text: 'press 1\ufe0f\u20e3', shown: 'press 1\ufe0f\u20e3', hidden: 0 },
    { name: 'a variation selector after ASCII', text: 'l\ufe0fs', shown: 'l\\ufe0fs', hidden: 1, kinds: ['invisible'] },
    { name: 'a variation selector at the start', text: '\ufe0els', shown: '\\ufe0els', hidden: 1 },
    { name: 'a selector after an accented letter', text: 'caf\u00e9\ufe0f \u00e9\ufe00', shown: 'caf\u00e9\\ufe0f \u00e9\\ufe00', hidden: 2 },
    { name: 'a math symbol with its variant, a copyright sign as emoji', text: '\u2264\ufe00 \u00a9\ufe0f', shown: '\u2264\ufe00 \u00a9\ufe0f', hidden: 0 },
    { name: 'a second selector in a row', text: '\u2764\ufe0f\ufe0f', shown: '\u2764\ufe0f\\ufe0f', hidden: 1 },
    { name: 'an emoji carrying bytes in selectors', text: '\u{1f600}\u{e0100}\u{e0101}', shown: '\u{1f600}\\u{e0100}\\u{e0101}', hidden: 2 },
    { name: 'an ideographic variation selector after an ideograph', text: '葛\u{e0100}', shown: '葛\u{e0100}', hidden: 0 },
    { name: 'a Mongolian selector after a Mongolian letter, not after ASCII', text: '\u1820\u180b a\u180b', shown: '\u1820\u180b a\\u180b', hidden: 1 },
    {
      name: 'a family: one emoji of four joined',
      text: '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u200d\u{1f466}',
      shown: '\u{1f468}\u200d\u{1f469}\u200d\u{1f467}\u200d\u{1f466}',
      hidden: 0,
    },
    {
      name: 'joined emoji with a skin tone and a selector',
      text: '\u{1f469}\u{1f3fd}\u200d\u{1f4bb} \u{1f3f3}\ufe0f\u200d\u{1f308}',
      shown: '\u{1f469}\u{1f3fd}\u200d\u{1f4bb} \u{1f3f3}\ufe0f\u200d\u{1f308}',
      hidden: 0,
    },
    { name: 'a joiner inside a word', text: 'r\u200dm', shown: 'r\\u200dm', hidden: 1 },
    { name: 'a joiner after an emoji but before a letter', text: '\u{1f468}\u200dx', shown: '\u{1f468}\\u200dx', hidden: 1 },
    { name: 'a joiner before an emoji after a letter', text: 'x\u200d\u{1f468}', shown: 'x\\u200d\u{1f468}', hidden: 1 },
    { name: 'two joiners between emoji', text: '\u{1f468}\u200d\u200d\u{1f469}', shown: '\u{1f468}\\u200d\\u200d\u{1f469}', hidden: 2 },
    { name: 'a non-joiner, even in Persian', text: 'می\u200cخواهم', shown: 'می\\u200cخواهم', hidden: 1 },
  ]
  for (const c of cases) {
    it(c.name, () => {
      expect(escapeHidden(c.text)).toBe(c.shown)
      expect(countHidden(c.text)).toBe(c.hidden)
      const r = revealHidden(c.text)
      expect(r.hidden).toBe(c.hidden)
      // The pieces are the text: plain stretches as they are, marks as their characters.
      expect(r.pieces.map((p) => (typeof p === 'string' ? p : String.fromCodePoint(p.code))).join('')).toBe(c.text)
      if (c.kinds !== undefined) expect(marks(c.text).map((m) => m.kind)).toEqual(c.kinds)
      // No plain piece holds a hidden character.
      for (const p of r.pieces) if (typeof p === 'string') expect(countHidden(p)).toBe(0)
    })
  }

  it('splits text into plain stretches and marks with escape and name', () => {
    expect(revealHidden('ls # \u202e hidden\ndone')).toEqual({
      pieces: [
        'ls # ',
        { kind: 'bidi', code: 0x202e, escape: '\\u202e', name: 'RIGHT-TO-LEFT OVERRIDE' },
        ' hidden',
        { kind: 'newline', code: 0x0a, escape: '\\n', name: 'LINE FEED' },
        'done',
      ],
      hidden: 1,
    })
    expect(revealHidden('')).toEqual({ pieces: [], hidden: 0 })
  })

  it('names each character for a title', () => {
    const title = (text: string) => hiddenTitle(marks(text)[0]!)
    expect(title('\u202e')).toBe('U+202E RIGHT-TO-LEFT OVERRIDE: changes the direction text is drawn in')
    expect(title('\u200b')).toBe('U+200B ZERO WIDTH SPACE: drawn as nothing')
    expect(title('\x1b')).toBe('U+001B ESCAPE: a control character')
    expect(title('\u00a0')).toBe('U+00A0 NO-BREAK SPACE: not a plain space: bash does not split words at it')
    expect(title('\u{e0041}')).toBe('U+E0041 TAG CHARACTER “A”: an invisible copy of an ASCII character')
    expect(hiddenName(0xfe0f)).toBe('VARIATION SELECTOR-16')
    expect(hiddenName(0xe0100)).toBe('VARIATION SELECTOR-17')
    expect(hiddenName(0x9b)).toBe('CONTROL SEQUENCE INTRODUCER')
    expect(hiddenName(0x81)).toBe('C1 CONTROL CHARACTER')
    expect(hiddenName(0xd83d)).toBe('LONE SURROGATE')
    expect(hiddenName(0xe0200)).toBe('UNASSIGNED INVISIBLE CODE POINT')
  })

  it('marks at most maxMarks characters, and escapes the rest as plain text', () => {
    const r = revealHidden('a\u200b'.repeat(5) + 'z\nend', { maxMarks: 3 })
    expect(r.hidden).toBe(5)
    expect(r.pieces.filter((p) => typeof p !== 'string')).toHaveLength(3)
    expect(r.pieces[r.pieces.length - 1]).toBe('a\\u200ba\\u200bz\nend')
  })

  it('keeps line feeds in the plain text when asked to', () => {
    expect(revealHidden('{\n  "a": "\u202e"\n}', { plainNewlines: true })).toEqual({
      pieces: ['{\n  "a": "', { kind: 'bidi', code: 0x202e, escape: '\\u202e', name: 'RIGHT-TO-LEFT OVERRIDE' }, '"\n}'],
      hidden: 1,
    })
    // They take no mark: a long JSON text still marks its hidden characters.
    const long = revealHidden('\n'.repeat(10) + '\u200b', { plainNewlines: true, maxMarks: 1 })
    expect(long.pieces).toEqual(['\n'.repeat(10), expect.objectContaining({ code: 0x200b })])
  })

  describe('on huge input', () => {
    afterEach(() => vi.restoreAllMocks())

    // Work is counted, not timed: the scan reads each code point a bounded number of times.
    const hostile = [
      '\u202e'.repeat(50_000),
      'a\u200b'.repeat(25_000),
      '\u{1f468}\u200d'.repeat(25_000),
      '\u2764\ufe0f\ufe0f'.repeat(20_000),
      '\u{e0041}'.repeat(25_000),
      'x'.repeat(100_000),
    ]
    for (const text of hostile) {
      it(`reads ${escapeHidden(text.slice(0, 6))}… in one pass`, () => {
        const reads = vi.spyOn(String.prototype, 'codePointAt')
        const { pieces, hidden } = revealHidden(text)
        expect(reads.mock.calls.length).toBeLessThanOrEqual(2 * text.length + 1)
        expect(pieces.filter((p) => typeof p !== 'string').length).toBeLessThanOrEqual(MAX_MARKS)
        expect(pieces.length).toBeLessThanOrEqual(2 * MAX_MARKS + 1)
        expect(hidden).toBe(countHidden(text))
        reads.mockClear()
        escapeHidden(text)
        expect(reads.mock.calls.length).toBeLessThanOrEqual(2 * text.length + 1)
      })
    }
  })
})
