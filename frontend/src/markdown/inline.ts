// Inline markdown: code spans, **strong**, *em*, ~~del~~, [links](url),
// <autolinks>, bare http(s) URLs, backslash escapes and line breaks (every
// newline in a paragraph is a break: chat text is written line by line).
// A subset of CommonMark that is forgiving with the half-written text of a
// streaming reply: an unclosed delimiter is just text.

import type { Inline } from './ast'
import { safeUrl } from './safeUrl'

const ASCII_PUNCT = /[!-/:-@[-`{-~]/
const SPACE = /\s/
const ALNUM = /[\p{L}\p{N}]/u

interface Parsed {
  nodes: Inline[]
  end: number
}

function runLength(src: string, i: number, ch: string): number {
  let j = i
  while (src[j] === ch) j++
  return j - i
}

export function parseInline(src: string, allowLinks = true): Inline[] {
  const out: Inline[] = []
  let text = ''
  const push = (nodes: Inline[]) => {
    if (text !== '') out.push({ type: 'text', text })
    text = ''
    out.push(...nodes)
  }
  let i = 0
  while (i < src.length) {
    const c = src[i] as string
    if (c === '\\' && i + 1 < src.length && ASCII_PUNCT.test(src[i + 1] as string)) {
      text += src[i + 1]
      i += 2
      continue
    }
    if (c === '\n') {
      push([{ type: 'br' }])
      i++
      continue
    }
    const parsed = parseAt(src, i, c, allowLinks)
    if (parsed !== null) {
      push(parsed.nodes)
      i = parsed.end
      continue
    }
    // Unmatched delimiter runs are text as a whole (so "**" never opens half-way).
    const run = c === '`' || c === '*' || c === '_' || c === '~' ? runLength(src, i, c) : 1
    text += src.slice(i, i + run)
    i += run
  }
  if (text !== '') out.push({ type: 'text', text })
  return out
}

function parseAt(src: string, i: number, c: string, allowLinks: boolean): Parsed | null {
  if (c === '`') return codeSpan(src, i)
  if (c === '*' || c === '_' || c === '~') return emphasis(src, i, allowLinks)
  if (!allowLinks) return null
  if (c === '[' || (c === '!' && src[i + 1] === '[')) return link(src, i)
  if (c === '<') return angleLink(src, i)
  if ((c === 'h' || c === 'H' || c === 'w' || c === 'W') && (i === 0 || !ALNUM.test(src[i - 1] as string))) {
    return bareLink(src, i)
  }
  return null
}

function codeSpan(src: string, i: number): Parsed | null {
  const n = runLength(src, i, '`')
  let j = i + n
  for (;;) {
    const k = src.indexOf('`', j)
    if (k < 0) return null
    const m = runLength(src, k, '`')
    if (m === n) {
      let code = src.slice(i + n, k).replace(/\n/g, ' ')
      if (code.length >= 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '') code = code.slice(1, -1)
      return { nodes: [{ type: 'code', text: code }], end: k + m }
    }
    j = k + m
  }
}

/**
 * *em*, **strong**, ***both***, _em_, __strong__, ~~del~~. The opener must
 * not be followed by a space, the closer not preceded by one, and "_" does
 * not work inside words (snake_case stays as it is).
 */
function emphasis(src: string, i: number, allowLinks: boolean): Parsed | null {
  const c = src[i] as string
  const run = runLength(src, i, c)
  const after = src[i + run]
  if (after === undefined || SPACE.test(after)) return null
  if (c === '_' && i > 0 && ALNUM.test(src[i - 1] as string)) return null
  if (c === '~' && run !== 2) return null
  const size = c === '~' ? 2 : Math.min(run, 2)
  const close = findCloser(src, i + size, c, size)
  if (close === null) return null
  const inner = src.slice(i + size, close)
  if (inner === '') return null
  const type = c === '~' ? 'del' : size === 2 ? 'strong' : 'em'
  return { nodes: [{ type, children: parseInline(inner, allowLinks) }], end: close + size }
}

/** Where the closing delimiter of `size` starts, skipping code spans and escapes. */
function findCloser(src: string, from: number, c: string, size: number): number | null {
  let j = from
  while (j < src.length) {
    const ch = src[j]
    if (ch === '\\') {
      j += 2
      continue
    }
    if (ch === '`') {
      const code = codeSpan(src, j)
      j = code === null ? j + runLength(src, j, '`') : code.end
      continue
    }
    if (ch !== c) {
      j++
      continue
    }
    const len = runLength(src, j, c)
    const before = src[j - 1]
    const next = src[j + len]
    const rightFlanking = before !== undefined && !SPACE.test(before) && j > from
    const wordEnd = c !== '_' || next === undefined || !ALNUM.test(next)
    // A closer of one (*em*) never takes a "**" run: that run belongs to a strong inside.
    const fits = c === '~' ? len === 2 : size === 2 ? len >= 2 : len !== 2
    if (rightFlanking && wordEnd && fits) return j + len - size
    j += len
  }
  return null
}

function matchBracket(src: string, open: number): number {
  let depth = 0
  for (let j = open; j < src.length; j++) {
    const ch = src[j]
    if (ch === '\\') {
      j++
    } else if (ch === '`') {
      const code = codeSpan(src, j)
      if (code !== null) j = code.end - 1
    } else if (ch === '[') {
      depth++
    } else if (ch === ']') {
      depth--
      if (depth === 0) return j
    }
  }
  return -1
}

interface Destination {
  url: string
  title?: string
  end: number
}

/** Parses `url "title")` starting after the "(" of a link. */
function destination(src: string, k: number): Destination | null {
  const skipSpace = () => {
    while (k < src.length && SPACE.test(src[k] as string)) k++
  }
  skipSpace()
  let url = ''
  if (src[k] === '<') {
    const close = src.indexOf('>', k + 1)
    if (close < 0 || src.slice(k + 1, close).includes('\n')) return null
    url = src.slice(k + 1, close)
    k = close + 1
  } else {
    let depth = 0
    for (; k < src.length; k++) {
      const ch = src[k] as string
      if (ch === '\\' && k + 1 < src.length) {
        url += src[++k]
        continue
      }
      if (SPACE.test(ch)) break
      if (ch === '(') depth++
      if (ch === ')' && depth-- === 0) break
      url += ch
    }
  }
  skipSpace()
  let title: string | undefined
  const q = src[k]
  if (q === '"' || q === "'" || q === '(') {
    const closeQ = q === '(' ? ')' : q
    const end = src.indexOf(closeQ, k + 1)
    if (end < 0) return null
    title = src.slice(k + 1, end)
    k = end + 1
    skipSpace()
  }
  if (src[k] !== ')') return null
  return title === undefined ? { url, end: k + 1 } : { url, title, end: k + 1 }
}

function link(src: string, i: number): Parsed | null {
  const image = src[i] === '!'
  const open = image ? i + 1 : i
  const close = matchBracket(src, open)
  if (close < 0 || src[close + 1] !== '(') return null
  const dest = destination(src, close + 2)
  if (dest === null) return null
  const label = src.slice(open + 1, close)
  // Images are not loaded (untrusted, and CSP forbids them): they become links.
  const children: Inline[] = image ? [{ type: 'text', text: label || dest.url }] : parseInline(label, false)
  const href = safeUrl(dest.url)
  if (href === null) return { nodes: children, end: dest.end }
  const node: Inline = { type: 'link', href, children }
  if (dest.title !== undefined && dest.title !== '') node.title = dest.title
  return { nodes: [node], end: dest.end }
}

const ANGLE_URL = /^<([a-zA-Z][a-zA-Z0-9+.-]{1,31}:[^\s<>]*)>/
const ANGLE_EMAIL = /^<([^\s<>@]+@[^\s<>@]+\.[^\s<>@]+)>/

function angleLink(src: string, i: number): Parsed | null {
  const rest = src.slice(i, i + 2048)
  const url = ANGLE_URL.exec(rest)
  const email = url === null ? ANGLE_EMAIL.exec(rest) : null
  const match = url ?? email
  if (match === null) return null
  const target = match[1] as string
  const href = safeUrl(email === null ? target : `mailto:${target}`)
  if (href === null) return null
  return { nodes: [{ type: 'link', href, children: [{ type: 'text', text: target }] }], end: i + match[0].length }
}

const BARE_URL = /^(?:https?:\/\/|www\.)[^\s<>]+/i
const TRAILING_PUNCT = /[?!.,:;*_~'"]$/

function bareLink(src: string, i: number): Parsed | null {
  const match = BARE_URL.exec(src.slice(i, i + 2048))
  if (match === null) return null
  let text = match[0]
  for (;;) {
    if (TRAILING_PUNCT.test(text)) {
      text = text.slice(0, -1)
      continue
    }
    if (text.endsWith(')') && count(text, '(') < count(text, ')')) {
      text = text.slice(0, -1)
      continue
    }
    break
  }
  const href = safeUrl(/^www\./i.test(text) ? `http://${text}` : text)
  if (href === null || text.length < 5) return null
  return { nodes: [{ type: 'link', href, children: [{ type: 'text', text }] }], end: i + text.length }
}

function count(s: string, ch: string): number {
  let n = 0
  for (const c of s) if (c === ch) n++
  return n
}
