// Block markdown: paragraphs, ATX headings, fenced code (an unclosed fence
// runs to the end, as it does while a reply streams), block quotes, ordered
// and bullet lists with nesting, GFM pipe tables and thematic breaks.
// Anything else, including raw HTML, is paragraph text.

import type { Align, Block } from './ast'
import { parseInline } from './inline'

const FENCE = /^( {0,3})(`{3,}|~{3,})[ \t]*([^`\s]*)[^`]*$/
const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+|$)(.*?)(?:[ \t]+#+)?[ \t]*$/
const HR = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/
const QUOTE = /^ {0,3}> ?(.*)$/
const LIST_ITEM = /^( {0,3})([-*+]|\d{1,9}[.)])([ \t]+|$)(.*)$/
const TABLE_DELIM = /^ {0,3}\|?[ \t]*:?-+:?[ \t]*(\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$/
const MAX_DEPTH = 12

const isBlank = (line: string) => line.trim() === ''

export function parseMarkdown(text: string): Block[] {
  return parseBlocks(text.split(/\r\n|\r|\n/), 0)
}

function parseBlocks(lines: string[], depth: number): Block[] {
  if (depth > MAX_DEPTH) return [{ type: 'paragraph', children: parseInline(lines.join('\n').trim()) }]
  const blocks: Block[] = []
  let i = 0
  while (i < lines.length) {
    const line = lines[i] as string
    if (isBlank(line)) {
      i++
      continue
    }
    const parsed =
      fence(lines, i) ?? heading(line, i) ?? hr(line, i) ?? quote(lines, i, depth) ?? list(lines, i, depth) ?? table(lines, i)
    if (parsed !== null) {
      blocks.push(parsed.block)
      i = parsed.next
      continue
    }
    const start = i
    i++
    while (i < lines.length && !isBlank(lines[i] as string) && !interrupts(lines, i)) i++
    const para = lines
      .slice(start, i)
      .map((l) => l.trim())
      .join('\n')
    blocks.push({ type: 'paragraph', children: parseInline(para) })
  }
  return blocks
}

interface Parsed {
  block: Block
  next: number
}

/** A line that ends a paragraph by starting another block. */
function interrupts(lines: string[], i: number): boolean {
  const line = lines[i] as string
  if (FENCE.test(line) || HEADING.test(line) || HR.test(line) || QUOTE.test(line)) return true
  const item = LIST_ITEM.exec(line)
  // An ordered list interrupts a paragraph only when it starts at 1 (so "in 2020. we" is safe).
  if (item !== null && item[4] !== '' && (/^[-*+]$/.test(item[2] as string) || /^1[.)]$/.test(item[2] as string))) return true
  return tableStartsAt(lines, i)
}

function fence(lines: string[], i: number): Parsed | null {
  const m = FENCE.exec(lines[i] as string)
  if (m === null) return null
  const indent = (m[1] as string).length
  const marker = m[2] as string
  const closing = new RegExp(`^ {0,3}${marker[0] === '`' ? '`' : '~'}{${marker.length},}[ \\t]*$`)
  const body: string[] = []
  let j = i + 1
  for (; j < lines.length; j++) {
    const line = lines[j] as string
    if (closing.test(line)) break
    body.push(line.replace(new RegExp(`^ {0,${indent}}`), ''))
  }
  const lang = (m[3] as string).replace(/[^\w+#.-]/g, '').slice(0, 32)
  return { block: { type: 'code', lang, text: body.join('\n') }, next: Math.min(j + 1, lines.length) }
}

function heading(line: string, i: number): Parsed | null {
  const m = HEADING.exec(line)
  if (m === null) return null
  const level = (m[1] as string).length as 1 | 2 | 3 | 4 | 5 | 6
  return { block: { type: 'heading', level, children: parseInline((m[2] as string).trim()) }, next: i + 1 }
}

function hr(line: string, i: number): Parsed | null {
  return HR.test(line) ? { block: { type: 'hr' }, next: i + 1 } : null
}

function quote(lines: string[], i: number, depth: number): Parsed | null {
  if (!QUOTE.test(lines[i] as string)) return null
  const inner: string[] = []
  let j = i
  for (; j < lines.length; j++) {
    const m = QUOTE.exec(lines[j] as string)
    if (m === null) break
    inner.push(m[1] as string)
  }
  return { block: { type: 'quote', children: parseBlocks(inner, depth + 1) }, next: j }
}

function indentOf(line: string): number {
  let n = 0
  for (const ch of line) {
    if (ch === ' ') n++
    else if (ch === '\t') n += 4 - (n % 4)
    else break
  }
  return n
}

/** Removes up to n columns of leading indentation. */
function dedent(line: string, n: number): string {
  let cols = 0
  let k = 0
  while (k < line.length && cols < n) {
    const ch = line[k]
    if (ch === ' ') cols++
    else if (ch === '\t') cols += 4 - (cols % 4)
    else break
    k++
  }
  return line.slice(k)
}

function list(lines: string[], i: number, depth: number): Parsed | null {
  const first = LIST_ITEM.exec(lines[i] as string)
  if (first === null) return null
  const ordered = /\d/.test(first[2] as string)
  const kind = ordered ? (first[2] as string).slice(-1) : (first[2] as string)
  const items: Block[][] = []
  let j = i
  while (j < lines.length) {
    const m = LIST_ITEM.exec(lines[j] as string)
    if (m === null) break
    const marker = m[2] as string
    if ((ordered ? marker.slice(-1) : marker) !== kind || /\d/.test(marker) !== ordered) break
    const markerIndent = (m[1] as string).length
    const contentIndent = markerIndent + marker.length + Math.max(1, Math.min((m[3] as string).length, 4))
    const body: string[] = [m[4] as string]
    j++
    let blankBefore = false
    while (j < lines.length) {
      const line = lines[j] as string
      if (isBlank(line)) {
        blankBefore = true
        body.push('')
        j++
        continue
      }
      const indent = indentOf(line)
      if (indent >= contentIndent) {
        body.push(dedent(line, contentIndent))
      } else if (indent > markerIndent && LIST_ITEM.test(line)) {
        body.push(dedent(line, indent)) // a sub-list indented less than the item's text
      } else if (!blankBefore && !LIST_ITEM.test(line) && !interrupts(lines, j)) {
        body.push(line.trim()) // lazy continuation of the item's paragraph
      } else {
        break
      }
      blankBefore = false
      j++
    }
    while (body.length > 0 && isBlank(body[body.length - 1] as string)) body.pop()
    items.push(parseBlocks(body, depth + 1))
    // A blank line followed by something that is not another item ends the list.
    if (j < lines.length && !LIST_ITEM.test(lines[j] as string)) break
  }
  const start = ordered ? Number.parseInt(first[2] as string, 10) : 1
  return { block: { type: 'list', ordered, start, items }, next: j }
}

function splitRow(line: string): string[] {
  let row = line.trim()
  if (row.startsWith('|')) row = row.slice(1)
  if (row.endsWith('|') && !row.endsWith('\\|')) row = row.slice(0, -1)
  const cells: string[] = []
  let cell = ''
  let inCode = false
  for (let k = 0; k < row.length; k++) {
    const ch = row[k]
    if (ch === '\\' && row[k + 1] === '|') {
      cell += '|'
      k++
    } else if (ch === '`') {
      inCode = !inCode
      cell += ch
    } else if (ch === '|' && !inCode) {
      cells.push(cell.trim())
      cell = ''
    } else {
      cell += ch
    }
  }
  cells.push(cell.trim())
  return cells
}

function tableStartsAt(lines: string[], i: number): boolean {
  const head = lines[i] as string
  const delim = lines[i + 1]
  if (delim === undefined || !head.includes('|') || !TABLE_DELIM.test(delim)) return false
  return splitRow(head).length === splitRow(delim).length
}

function alignOf(cell: string): Align {
  const left = cell.startsWith(':')
  const right = cell.endsWith(':')
  if (left && right) return 'center'
  if (right) return 'right'
  if (left) return 'left'
  return null
}

function table(lines: string[], i: number): Parsed | null {
  if (!tableStartsAt(lines, i)) return null
  const header = splitRow(lines[i] as string)
  const align = splitRow(lines[i + 1] as string).map(alignOf)
  const rows: string[][] = []
  let j = i + 2
  while (j < lines.length && !isBlank(lines[j] as string) && (lines[j] as string).includes('|')) {
    const cells = splitRow(lines[j] as string)
    rows.push(header.map((_, k) => cells[k] ?? ''))
    j++
  }
  return {
    block: {
      type: 'table',
      align,
      header: header.map((c) => parseInline(c)),
      rows: rows.map((r) => r.map((c) => parseInline(c))),
    },
    next: j,
  }
}
