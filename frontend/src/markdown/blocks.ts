// Parsing by top-level blocks, so a streamed reply is not parsed again from
// the start for every token. The text is split into top-level blocks with
// markdown-it's own block tokens (each opening token's map is its line range).
// When the new text extends the previous one, the blocks before the last one
// are kept and only the text from the start of the last block on is parsed
// again. The result is always the same as parsing the whole text (the tests
// check it token by token), which needs three precautions:
//
// - A block only stays settled if the line that starts the next block is
//   complete: "para\n#" is a paragraph and a heading, "para\n#x" one
//   paragraph, and "1. a\n\n2" becomes one list once ". b" arrives. So when
//   the last block starts on the line still being written, the block before
//   it is parsed again too (unless a blank line separates them and it is not
//   a list: a blank line ends every other block whatever comes next). A line
//   with a "|" also needs the next line complete, as it may be a table's
//   header ("|-" is a delimiter row, "|-x" is not).
// - Link reference definitions ("[x]: https://...") act on the whole text:
//   when there is one, every update parses the whole text.
// - Blocks that come out the same (same start line, same source, same
//   definitions) keep their previous object, so memoised rendering skips them.
//
// This file is pure: no React.

import type { Env, MarkdownIt, Token } from 'markdown-it'

export interface MdBlock {
  /** First line of the block (0-based) in the text. */
  readonly line: number
  /** Offset of that line in the text. */
  readonly offset: number
  /** The block's source: its lines up to the next block (blank lines included), or to the end. */
  readonly src: string
  /** markdown-it tokens of this block (block tokens, inline ones in their children). */
  readonly tokens: readonly Token[]
  /** The root token's type: "paragraph_open", "bullet_list_open", "fence"… */
  readonly kind: string
}

export interface ParsedText {
  /** The text as given. */
  readonly source: string
  /** The text with line endings normalised as markdown-it does. */
  readonly text: string
  readonly blocks: readonly MdBlock[]
  /** Number of "\n" in text: lines before this one are complete. */
  readonly completeLines: number
  /** The link reference definitions found, as JSON ("" when none). */
  readonly references: string
  /** What producing this result parsed. */
  readonly stats: ParseStats
}

export interface ParseStats {
  /** The whole text was parsed (not an extension of the previous one, or definitions). */
  readonly full: boolean
  /** Index of the first block that was parsed again (0 for a full parse). */
  readonly reparsedFrom: number
  /** Characters handed to markdown-it. */
  readonly parsedChars: number
}

/** Parses the whole text. */
export function parseText(md: MarkdownIt, source: string): ParsedText {
  return updateText(md, null, source)
}

/**
 * Parses `source`, reusing `previous` (the result for an earlier text of the
 * same message) when `source` extends it.
 */
export function updateText(md: MarkdownIt, previous: ParsedText | null, source: string): ParsedText {
  if (previous !== null && previous.source === source) return previous
  if (previous !== null && previous.references === '' && previous.blocks.length > 0 && extendsSource(source, previous.source)) {
    const added = normalize(source.slice(previous.source.length))
    const text = previous.text + added
    const completeLines = previous.completeLines + countNewlines(added)
    const from = firstUnsettledBlock(previous)
    const start = previous.blocks[from] as MdBlock
    const region = parseRegion(md, text, start.line, start.offset)
    if (region.references === '') {
      const blocks = reuse(previous, [...previous.blocks.slice(0, from), ...region.blocks], from)
      const stats = { full: false, reparsedFrom: from, parsedChars: text.length - start.offset }
      return { source, text, blocks, completeLines, references: '', stats }
    }
  }
  const text = normalize(source)
  const whole = parseRegion(md, text, 0, 0)
  const blocks = previous !== null && previous.references === whole.references ? reuse(previous, whole.blocks, 0) : whole.blocks
  const stats = { full: true, reparsedFrom: 0, parsedChars: text.length }
  return { source, text, blocks, completeLines: countNewlines(text), references: whole.references, stats }
}

/**
 * Whether source is previous with more text after it. (Not startsWith: V8
 * runs it a character at a time on strings built by +=, which is slow on a
 * long reply; slice and === compare memory.) A "\r" at the end of previous
 * may be the first half of a "\r\n", so that is not counted as an extension.
 */
function extendsSource(source: string, previous: string): boolean {
  return source.length > previous.length && source.slice(0, previous.length) === previous && !previous.endsWith('\r')
}

function normalize(source: string): string {
  return source.replace(/\r\n?/g, '\n').replace(/\0/g, '\uFFFD')
}

function countNewlines(text: string): number {
  let n = 0
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++
  return n
}

/** The index of the first block of `previous` whose extent more text could still change. */
function firstUnsettledBlock(previous: ParsedText): number {
  let i = previous.blocks.length - 1
  while (i > 0 && !settledBoundary(previous, i)) i--
  return i
}

/**
 * Whether the boundary between blocks i-1 and i stays where it is whatever
 * text is appended. markdown-it decides where a block ends from the line that
 * starts the next one, and from the line after it only for a table (its
 * delimiter row), which needs a "|" in the first line.
 */
function settledBoundary(previous: ParsedText, i: number): boolean {
  const block = previous.blocks[i] as MdBlock
  const before = previous.blocks[i - 1] as MdBlock
  const { text, completeLines } = previous
  if (blankLineBefore(text, block.offset) && !isList(before)) return true
  if (block.line >= completeLines) return false
  return block.line + 1 < completeLines || !lineAt(text, block.offset).includes('|')
}

function isList(block: MdBlock): boolean {
  return block.kind === 'bullet_list_open' || block.kind === 'ordered_list_open'
}

/** The line that starts at `offset`. */
function lineAt(text: string, offset: number): string {
  const end = text.indexOf('\n', offset)
  return text.slice(offset, end < 0 ? text.length : end)
}

/** Whether the line before the one starting at `offset` is blank. */
function blankLineBefore(text: string, offset: number): boolean {
  if (offset === 0) return false
  const start = text.lastIndexOf('\n', offset - 2) + 1
  return /^[ \t]*$/.test(text.slice(start, offset - 1))
}

interface Region {
  blocks: MdBlock[]
  references: string
}

/** Parses text from `offset` (the start of line `line`) to the end, into top-level blocks. */
function parseRegion(md: MarkdownIt, text: string, line: number, offset: number): Region {
  const src = text.slice(offset)
  const env: Env = {}
  const tokens = md.parse(src, env)
  const lineStarts = lineOffsets(src)
  const blocks: MdBlock[] = []
  let current: Token[] = []
  let depth = 0
  for (const token of tokens) {
    if (depth === 0 && (token.map !== null || blocks.length === 0)) {
      current = []
      const first = token.map?.[0] ?? 0
      blocks.push({ line: line + first, offset: offset + (lineStarts[first] ?? src.length), src: '', tokens: current, kind: token.type })
    }
    current.push(token)
    depth += token.nesting
  }
  for (let i = 0; i < blocks.length; i++) {
    const block = blocks[i] as MdBlock
    const end = blocks[i + 1]?.offset ?? text.length
    blocks[i] = { ...block, src: text.slice(block.offset, end) }
  }
  const references = env.references === undefined ? '' : JSON.stringify(env.references)
  return { blocks, references: references === '{}' ? '' : references }
}

/** Start offsets of the lines of src. */
function lineOffsets(src: string): number[] {
  const starts = [0]
  for (let i = src.indexOf('\n'); i >= 0; i = src.indexOf('\n', i + 1)) starts.push(i + 1)
  return starts
}

/** Keeps the previous object of every block from `from` on that came out the same. */
function reuse(previous: ParsedText, blocks: MdBlock[], from: number): MdBlock[] {
  for (let i = from; i < blocks.length; i++) {
    const old = previous.blocks[i]
    const block = blocks[i] as MdBlock
    if (old !== undefined && old.line === block.line && old.src === block.src) blocks[i] = old
  }
  return blocks
}
