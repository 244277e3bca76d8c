// Characters that make a text read differently than it is, found so they can
// be shown as escapes (`\u202e`) instead of raw: what a card shows of a
// command or an argument is then what runs. Pure and linear: one pass over
// the text, a table lookup per character outside printable ASCII, and at
// most maxMarks marks (the rest of a hostile text is escaped as plain text).
//
// The set, and why (every class is shown escaped and counted as hidden):
//
// - control: the C0 controls (U+0000–U+001F) but tab and line feed, DEL
//   and the C1 controls (U+007F–U+009F): `\x1b`, `\r`. A terminal acts on
//   them; a page draws them as nothing. Tab stays as it is: bash reads it
//   as it reads a space, and it looks like one.
// - bidi: the marks, embeddings, overrides and isolates that change the order
//   text is drawn in (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).
// - invisible: zero-width and other default-ignorable characters, which are
//   drawn as nothing but are part of the word bash reads (U+00AD, U+034F,
//   U+115F, U+1160, U+17B4, U+17B5, U+180E, U+200B, U+200C, U+2060–U+2065,
//   U+206A–U+206F, U+3164, U+FEFF, U+FFA0, U+FFF0–U+FFFB, U+1BCA0–U+1BCA3,
//   U+1D173–U+1D17A, U+E0080–U+E00FF, U+E01F0–U+E0FFF), and U+2800 BRAILLE
//   PATTERN BLANK, a letter that looks like a space.
// - space: spaces other than U+0020 (U+00A0, U+1680, U+2000–U+200A, U+202F,
//   U+205F, U+3000) and the line and paragraph separators (U+2028, U+2029):
//   bash does not split words at them, so `ls\u00a0-la` is one word.
// - tag: U+E0000–U+E007F, invisible copies of ASCII (a text can hide a whole
//   sentence in them). Always flagged, also in the subdivision flags (🏴 and
//   tags for England, Scotland, Wales), which are then shown as 🏴 and escapes.
// - invalid: a lone surrogate (half of a character), drawn as U+FFFD.
//
// Two kinds are kept where text needs them, and flagged everywhere else:
//
// - a variation selector (U+FE00–U+FE0F, U+180B–U+180D, U+180F,
//   U+E0100–U+E01EF) right after the kind of character it varies: VS15 and
//   VS16 after an emoji or in a keycap ("1", U+FE0F, U+20E3), VS1–VS14 after
//   a non-ASCII character that is not a Latin, Greek or Cyrillic letter (math
//   symbols, CJK, Myanmar…), the Mongolian ones after a Mongolian letter,
//   VS17–VS256 after a CJK ideograph. Anywhere else (after ASCII or a letter
//   a command could be spelled with, after another selector, at the start) a
//   selector is hidden data: `l\ufe0fs` is not `ls`;
// - U+200D ZERO WIDTH JOINER between two emoji (man, joiner, woman, joiner,
//   girl is one family glyph). Inside a word it is flagged, and so is every
//   U+200C ZERO WIDTH NON-JOINER, also where Persian or Indic text uses one.
//
// A line feed is neither kept raw nor hidden: it is marked (the caller draws
// a ↵ and keeps the break), since in a command what follows it is another
// command; it is not counted as hidden.
//
// Not handled here: letters that look alike (Cyrillic а for Latin a), and
// combining marks drawn over their neighbours; they are visible, if subtle.

export type HiddenKind = 'control' | 'bidi' | 'invisible' | 'space' | 'tag' | 'invalid' | 'newline'

/** One character shown as its escape. */
export interface HiddenMark {
  kind: HiddenKind
  /** Its code point (a lone surrogate's code unit). */
  code: number
  /** How it is shown: `\u202e`, `\x1b`, `\r`, `\n`, `\u{e0041}`. */
  escape: string
  /** "RIGHT-TO-LEFT OVERRIDE" */
  name: string
}

/** Plain text (nothing in it is hidden) or a hidden character. */
export type HiddenPiece = string | HiddenMark

export interface Revealed {
  pieces: HiddenPiece[]
  /** How many hidden characters the text has (line feeds not counted). */
  hidden: number
}

/** The most marks one text gets by default. */
export const MAX_MARKS = 2_000

/** Kinds of the table; 'selector' and 'joiner' depend on their neighbours. */
type TableKind = Exclude<HiddenKind, 'newline'> | 'selector' | 'joiner'

// Sorted, not overlapping: [first, last, kind]. Printable ASCII, tab and line feed are not in it.
const RANGES: readonly (readonly [number, number, TableKind])[] = [
  [0x0000, 0x0008, 'control'],
  [0x000b, 0x001f, 'control'],
  [0x007f, 0x009f, 'control'],
  [0x00a0, 0x00a0, 'space'],
  [0x00ad, 0x00ad, 'invisible'],
  [0x034f, 0x034f, 'invisible'],
  [0x061c, 0x061c, 'bidi'],
  [0x115f, 0x1160, 'invisible'],
  [0x1680, 0x1680, 'space'],
  [0x17b4, 0x17b5, 'invisible'],
  [0x180b, 0x180d, 'selector'],
  [0x180e, 0x180e, 'invisible'],
  [0x180f, 0x180f, 'selector'],
  [0x2000, 0x200a, 'space'],
  [0x200b, 0x200c, 'invisible'],
  [0x200d, 0x200d, 'joiner'],
  [0x200e, 0x200f, 'bidi'],
  [0x2028, 0x2029, 'space'],
  [0x202a, 0x202e, 'bidi'],
  [0x202f, 0x202f, 'space'],
  [0x205f, 0x205f, 'space'],
  [0x2060, 0x2065, 'invisible'],
  [0x2066, 0x2069, 'bidi'],
  [0x206a, 0x206f, 'invisible'],
  [0x2800, 0x2800, 'invisible'],
  [0x3000, 0x3000, 'space'],
  [0x3164, 0x3164, 'invisible'],
  [0xd800, 0xdfff, 'invalid'],
  [0xfe00, 0xfe0f, 'selector'],
  [0xfeff, 0xfeff, 'invisible'],
  [0xffa0, 0xffa0, 'invisible'],
  [0xfff0, 0xfffb, 'invisible'],
  [0x1bca0, 0x1bca3, 'invisible'],
  [0x1d173, 0x1d17a, 'invisible'],
  [0xe0000, 0xe007f, 'tag'],
  [0xe0080, 0xe00ff, 'invisible'],
  [0xe0100, 0xe01ef, 'selector'],
  [0xe01f0, 0xe0fff, 'invisible'],
]

function tableKind(c: number): TableKind | null {
  if (c >= 0x20 && c < 0x7f) return null
  let lo = 0
  let hi = RANGES.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [first, last, kind] = RANGES[mid]!
    if (c < first) hi = mid - 1
    else if (c > last) lo = mid + 1
    else return kind
  }
  return null
}

const PICTOGRAPHIC = /^\p{Extended_Pictographic}$/u

function isPictographic(c: number): boolean {
  return c > 0x7f && PICTOGRAPHIC.test(String.fromCodePoint(c))
}

function isIdeograph(c: number): boolean {
  return (c >= 0x3400 && c <= 0x4dbf) || (c >= 0x4e00 && c <= 0x9fff) || (c >= 0xf900 && c <= 0xfaff) || (c >= 0x20000 && c <= 0x3ffff)
}

const KEYCAP_BASE = /^[0-9#*]$/
const EMOJI = /^\p{Emoji}$/u
const LETTER_OF_COMMANDS = /^[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]$/u

/** Whether variation selector c varies prev (the code point before it, shown plainly; -1 when none). */
function selectorFits(c: number, prev: number, next: number): boolean {
  if (prev < 0 || tableKind(prev) !== null) return false
  if (c >= 0x180b && c <= 0x180f) return prev >= 0x1820 && prev <= 0x18af
  if (c >= 0xe0100) return isIdeograph(prev)
  const before = String.fromCodePoint(prev)
  if (prev <= 0x7f) return c === 0xfe0f && next === 0x20e3 && KEYCAP_BASE.test(before) // a keycap: 1 U+FE0F U+20E3
  if (c >= 0xfe0e) return EMOJI.test(before)
  return !LETTER_OF_COMMANDS.test(before)
}

/** Emoji modifiers (skin tones): they continue an emoji as a selector does. */
function isModifier(c: number): boolean {
  return c >= 0x1f3fb && c <= 0x1f3ff
}

/** Anything but printable ASCII and tab: most text has none, and is plain at once. */
const MAYBE_HIDDEN = /[^\t\x20-\x7e]/

/**
 * Walks text once: plain stretches as [from, to), hidden characters with
 * their kind. A line feed comes as the kind 'newline'.
 */
function scan(text: string, plain: (from: number, to: number) => void, hidden: (code: number, kind: HiddenKind) => void): void {
  if (!MAYBE_HIDDEN.test(text)) {
    if (text !== '') plain(0, text.length)
    return
  }
  let start = 0
  let prev = -1
  // The text so far ends in an emoji (and its selector, modifier or joiner): a joiner may follow.
  let inEmoji = false
  for (let i = 0; i < text.length; ) {
    const code = text.codePointAt(i)!
    const size = code > 0xffff ? 2 : 1
    let kind: HiddenKind | null
    if (code === 0x0a) kind = 'newline'
    else {
      const t = tableKind(code)
      if (t === 'selector') kind = selectorFits(code, prev, text.codePointAt(i + size) ?? -1) ? null : 'invisible'
      else if (t === 'joiner') kind = inEmoji && isPictographic(text.codePointAt(i + size) ?? -1) ? null : 'invisible'
      else kind = t
    }
    if (kind === null) {
      inEmoji = isPictographic(code) || (inEmoji && (code === 0xfe0f || code === 0x200d || isModifier(code)))
      prev = code
    } else {
      if (i > start) plain(start, i)
      hidden(code, kind)
      start = i + size
      inEmoji = false
      prev = -1
    }
    i += size
  }
  if (text.length > start) plain(start, text.length)
}

const hex = (c: number, width: number) => c.toString(16).padStart(width, '0')

/** The escape a hidden character is shown as. */
export function escapeOf(code: number): string {
  if (code === 0x0a) return '\\n'
  if (code === 0x0d) return '\\r'
  if (code <= 0x9f) return `\\x${hex(code, 2)}`
  return code > 0xffff ? `\\u{${hex(code, 1)}}` : `\\u${hex(code, 4)}`
}

export interface RevealOptions {
  /** Line feeds are part of the plain text (where lines are layout: JSON, output), not marks. */
  plainNewlines?: boolean
  /** The most marks; hidden characters after them are written into the plain text as escapes. */
  maxMarks?: number
}

/** text split into plain text and hidden characters (at most maxMarks marks; escapes after them). */
export function revealHidden(text: string, { plainNewlines = false, maxMarks = MAX_MARKS }: RevealOptions = {}): Revealed {
  const pieces: HiddenPiece[] = []
  let count = 0
  let marks = 0
  // Plain text (and escapes past maxMarks) waiting to be one piece.
  let pending = ''
  const flush = () => {
    if (pending !== '') pieces.push(pending)
    pending = ''
  }
  scan(
    text,
    (from, to) => {
      pending += text.slice(from, to)
    },
    (code, kind) => {
      if (kind === 'newline' && (plainNewlines || marks >= maxMarks)) {
        pending += '\n'
        return
      }
      if (kind !== 'newline') count++
      if (marks >= maxMarks) {
        pending += escapeOf(code)
        return
      }
      marks++
      flush()
      pieces.push({ kind, code, escape: escapeOf(code), name: hiddenName(code) })
    },
  )
  flush()
  return { pieces, hidden: count }
}

/** text on one line with every hidden character (and line feed) as its escape: for titles and notifications. */
export function escapeHidden(text: string): string {
  const parts: string[] = []
  scan(
    text,
    (from, to) => parts.push(text.slice(from, to)),
    (code) => parts.push(escapeOf(code)),
  )
  return parts.join('')
}

/** How many hidden characters text has (line feeds not counted). */
export function countHidden(text: string): number {
  let count = 0
  scan(
    text,
    () => {},
    (_, kind) => {
      if (kind !== 'newline') count++
    },
  )
  return count
}

const WHY: Record<HiddenKind, string> = {
  control: 'a control character',
  bidi: 'changes the direction text is drawn in',
  invisible: 'drawn as nothing',
  space: 'not a plain space: bash does not split words at it',
  tag: 'an invisible copy of an ASCII character',
  invalid: 'half of a character',
  newline: 'a line break: in a command, what follows it is another command',
}

/** "U+202E RIGHT-TO-LEFT OVERRIDE: changes the direction text is drawn in", for a title. */
export function hiddenTitle(mark: HiddenMark): string {
  return `U+${hex(mark.code, 4).toUpperCase()} ${mark.name}: ${WHY[mark.kind]}`
}

const C0 = [
  'NULL', 'START OF HEADING', 'START OF TEXT', 'END OF TEXT', 'END OF TRANSMISSION', 'ENQUIRY', 'ACKNOWLEDGE', 'BELL',
  'BACKSPACE', 'CHARACTER TABULATION', 'LINE FEED', 'LINE TABULATION', 'FORM FEED', 'CARRIAGE RETURN', 'SHIFT OUT', 'SHIFT IN',
  'DATA LINK ESCAPE', 'DEVICE CONTROL ONE', 'DEVICE CONTROL TWO', 'DEVICE CONTROL THREE', 'DEVICE CONTROL FOUR',
  'NEGATIVE ACKNOWLEDGE', 'SYNCHRONOUS IDLE', 'END OF TRANSMISSION BLOCK', 'CANCEL', 'END OF MEDIUM', 'SUBSTITUTE', 'ESCAPE',
  'INFORMATION SEPARATOR FOUR', 'INFORMATION SEPARATOR THREE', 'INFORMATION SEPARATOR TWO', 'INFORMATION SEPARATOR ONE',
] as const

const NAMES: Record<number, string> = {
  0x7f: 'DELETE',
  0x85: 'NEXT LINE',
  0x90: 'DEVICE CONTROL STRING',
  0x9b: 'CONTROL SEQUENCE INTRODUCER',
  0x9c: 'STRING TERMINATOR',
  0x9d: 'OPERATING SYSTEM COMMAND',
  0xa0: 'NO-BREAK SPACE',
  0xad: 'SOFT HYPHEN',
  0x34f: 'COMBINING GRAPHEME JOINER',
  0x61c: 'ARABIC LETTER MARK',
  0x115f: 'HANGUL CHOSEONG FILLER',
  0x1160: 'HANGUL JUNGSEONG FILLER',
  0x1680: 'OGHAM SPACE MARK',
  0x17b4: 'KHMER VOWEL INHERENT AQ',
  0x17b5: 'KHMER VOWEL INHERENT AA',
  0x180b: 'MONGOLIAN FREE VARIATION SELECTOR ONE',
  0x180c: 'MONGOLIAN FREE VARIATION SELECTOR TWO',
  0x180d: 'MONGOLIAN FREE VARIATION SELECTOR THREE',
  0x180e: 'MONGOLIAN VOWEL SEPARATOR',
  0x180f: 'MONGOLIAN FREE VARIATION SELECTOR FOUR',
  0x2000: 'EN QUAD',
  0x2001: 'EM QUAD',
  0x2002: 'EN SPACE',
  0x2003: 'EM SPACE',
  0x2004: 'THREE-PER-EM SPACE',
  0x2005: 'FOUR-PER-EM SPACE',
  0x2006: 'SIX-PER-EM SPACE',
  0x2007: 'FIGURE SPACE',
  0x2008: 'PUNCTUATION SPACE',
  0x2009: 'THIN SPACE',
  0x200a: 'HAIR SPACE',
  0x200b: 'ZERO WIDTH SPACE',
  0x200c: 'ZERO WIDTH NON-JOINER',
  0x200d: 'ZERO WIDTH JOINER',
  0x200e: 'LEFT-TO-RIGHT MARK',
  0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR',
  0x2029: 'PARAGRAPH SEPARATOR',
  0x202a: 'LEFT-TO-RIGHT EMBEDDING',
  0x202b: 'RIGHT-TO-LEFT EMBEDDING',
  0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE',
  0x202e: 'RIGHT-TO-LEFT OVERRIDE',
  0x202f: 'NARROW NO-BREAK SPACE',
  0x205f: 'MEDIUM MATHEMATICAL SPACE',
  0x2060: 'WORD JOINER',
  0x2061: 'FUNCTION APPLICATION',
  0x2062: 'INVISIBLE TIMES',
  0x2063: 'INVISIBLE SEPARATOR',
  0x2064: 'INVISIBLE PLUS',
  0x2066: 'LEFT-TO-RIGHT ISOLATE',
  0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE',
  0x2069: 'POP DIRECTIONAL ISOLATE',
  0x206a: 'INHIBIT SYMMETRIC SWAPPING',
  0x206b: 'ACTIVATE SYMMETRIC SWAPPING',
  0x206c: 'INHIBIT ARABIC FORM SHAPING',
  0x206d: 'ACTIVATE ARABIC FORM SHAPING',
  0x206e: 'NATIONAL DIGIT SHAPES',
  0x206f: 'NOMINAL DIGIT SHAPES',
  0x2800: 'BRAILLE PATTERN BLANK',
  0x3000: 'IDEOGRAPHIC SPACE',
  0x3164: 'HANGUL FILLER',
  0xfeff: 'ZERO WIDTH NO-BREAK SPACE',
  0xffa0: 'HALFWIDTH HANGUL FILLER',
  0xfff9: 'INTERLINEAR ANNOTATION ANCHOR',
  0xfffa: 'INTERLINEAR ANNOTATION SEPARATOR',
  0xfffb: 'INTERLINEAR ANNOTATION TERMINATOR',
  0xe0001: 'LANGUAGE TAG',
  0xe007f: 'CANCEL TAG',
}

/** The character's name, or what it is when it has none worth a table row. */
export function hiddenName(code: number): string {
  if (code < 0x20) return C0[code]!
  const named = NAMES[code]
  if (named !== undefined) return named
  if (code <= 0x9f) return 'C1 CONTROL CHARACTER'
  if (code >= 0xd800 && code <= 0xdfff) return 'LONE SURROGATE'
  if (code >= 0xfe00 && code <= 0xfe0f) return `VARIATION SELECTOR-${code - 0xfe00 + 1}`
  if (code >= 0xe0100 && code <= 0xe01ef) return `VARIATION SELECTOR-${code - 0xe0100 + 17}`
  if (code >= 0xe0020 && code <= 0xe007e) return `TAG CHARACTER “${String.fromCharCode(code - 0xe0000)}”`
  if (code >= 0x1bca0 && code <= 0x1bca3) return 'SHORTHAND FORMAT CONTROL'
  if (code >= 0x1d173 && code <= 0x1d17a) return 'MUSICAL SYMBOL FORMAT CONTROL'
  return 'UNASSIGNED INVISIBLE CODE POINT'
}
