import { createElement, Fragment } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { parseText, updateText, type ParsedText } from './blocks'
import { chatParser } from './parser'
import { renderTokens } from './render'

const md = chatParser
const options = { breaks: true }

const render = (parsed: ParsedText) =>
  renderToStaticMarkup(
    createElement(Fragment, null, ...parsed.blocks.map((b) => createElement(Fragment, { key: b.line }, renderTokens(b.tokens, options)))),
  )

const full = (text: string) => render(parseText(md, text))

/** A small deterministic random generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed
  return () => {
    a = (a + 0x6d2b79f5) | 0
    let t = Math.imul(a ^ (a >>> 15), 1 | a)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Cuts text into pieces of 1 to `max` characters, as a stream of tokens would. */
function chunks(text: string, seed: number, max = 5): string[] {
  const next = random(seed)
  const out: string[] = []
  for (let i = 0; i < text.length; ) {
    const n = 1 + Math.floor(next() * max)
    out.push(text.slice(i, i + n))
    i += n
  }
  return out
}

interface Fed {
  steps: number
  /** How many steps parsed again only the last block of the previous result. */
  lastBlockOnly: number
}

/**
 * Feeds text piece by piece through updateText and checks every step against
 * a full parse: same blocks, same rendering, earlier blocks kept as they were.
 */
function feed(text: string, pieces: string[]): Fed {
  let prev: ParsedText | null = null
  let sofar = ''
  let lastBlockOnly = 0
  for (const piece of pieces) {
    sofar += piece
    const next = updateText(md, prev, sofar)
    const whole = parseText(md, sofar)
    expect(next.blocks.map((b) => [b.line, b.src]), JSON.stringify(sofar)).toEqual(whole.blocks.map((b) => [b.line, b.src]))
    expect(render(next), JSON.stringify(sofar)).toBe(render(whole))
    if (prev !== null && !next.stats.full) {
      const from = next.stats.reparsedFrom
      // The last block, and the blocks before it only when they start on the last two lines
      // (where the next line may still change where they end).
      const settled = prev.blocks.findLastIndex((b) => b.line + 1 < (prev as ParsedText).completeLines)
      expect(from, JSON.stringify(sofar)).toBeGreaterThanOrEqual(Math.min(settled, prev.blocks.length - 1))
      for (let i = 0; i < from; i++) expect(next.blocks[i]).toBe(prev.blocks[i])
      expect(next.stats.parsedChars).toBe(next.text.length - (prev.blocks[from]?.offset ?? 0))
      if (from === prev.blocks.length - 1) lastBlockOnly++
    }
    prev = next
  }
  expect(prev?.text).toBe(text.replace(/\r\n?/g, '\n'))
  return { steps: pieces.length, lastBlockOnly }
}

const DOCS: Record<string, string> = {
  lists: [
    'Steps:',
    '1. First',
    '2. Second with **bold**',
    '   - nested a',
    '   - nested b',
    '',
    '3. Third, loose now',
    '',
    '10) other delimiter',
    '- bullet',
    '+ other bullet',
    '  continued lazily',
    'lazy line',
    '',
    '- [ ] task',
    '- [x] done',
    '',
    'After the list.',
  ].join('\n'),
  fences: [
    'Here is code:',
    '```ts',
    'const a = 1',
    '',
    '# not a heading',
    '```',
    'Between.',
    '~~~~',
    '```',
    'still code',
    '~~~~',
    '',
    '    indented code',
    '',
    '    more after a blank',
    'para',
    '```',
    'unclosed to the end',
  ].join('\n'),
  tables: [
    'Intro',
    '| a | b |',
    '|:--|--:|',
    '| 1 | `x\\|y` |',
    '| 2 |',
    'lazy row',
    '',
    'a | b',
    '-|-',
    '',
    '| not | a table |',
    '|-x|',
    '',
    '| h |',
    '| - |',
    '> quote after',
  ].join('\n'),
  setext: [
    'Title',
    '=====',
    'Paragraph line',
    'continued',
    '---',
    'A',
    '-',
    'B',
    '',
    '***',
    'para',
    '# atx',
    'para\\',
    '#hashtag',
    '## closed ##',
    '2020. a year',
    '1. a list interrupts',
  ].join('\n'),
  quotes: [
    '> level one',
    '> > level two',
    '> > > three',
    'lazy',
    '>',
    '> - list in quote',
    '>   more',
    '',
    '> new quote',
    '',
    '>> nested',
    '> back',
    '- > quote in list',
    '  > more',
  ].join('\n'),
  looseOrdered: '1. a\n\n2. b\n\n3. c\n\nNot a list\n\n- x\n\n- y\n\n* z\n\nend',
  mixed:
    '# Answer\n\nSome *text* with `code` and a link to https://example.com/path.\n\n' +
    '```py\nprint("hi")\n```\n\n| k | v |\n|---|---|\n| a | 1 |\n\n> note\n\n---\n\nDone ~~maybe~~.',
  crlf: 'a\r\nb\r\n\r\n- c\r\n- d\r\n```\r\nx\r\n```\r\n',
}

describe('incremental parsing', () => {
  for (const [name, text] of Object.entries(DOCS)) {
    it(`gives the same result as a full parse at every step: ${name}`, () => {
      feed(text, text.split('')) // one character at a time
      for (const seed of [1, 2, 3]) feed(text, chunks(text, seed))
    })
  }

  it('parses again only the last block of blank-line separated blocks', () => {
    const text = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `## Part ${i}` : `Paragraph ${i} has *some* text.`)).join('\n\n')
    const fed = feed(text, chunks(text, 7))
    expect(fed.lastBlockOnly).toBe(fed.steps - 1)
  })

  it('parses the block before the last again while the last block starts', () => {
    let parsed = parseText(md, 'para\n#')
    expect(parsed.blocks.map((b) => b.kind)).toEqual(['paragraph_open', 'heading_open'])
    parsed = updateText(md, parsed, 'para\n#x')
    expect(parsed.stats).toEqual({ full: false, reparsedFrom: 0, parsedChars: 7 })
    expect(parsed.blocks.map((b) => b.kind)).toEqual(['paragraph_open'])
    parsed = updateText(md, parseText(md, '1. a\n\n2'), '1. a\n\n2. b')
    expect(parsed.blocks.map((b) => b.src)).toEqual(['1. a\n\n2. b'])
  })

  it('matches a full parse on random documents', () => {
    // Random strings of markdown pieces, to reach the corners the documents above miss.
    const pieces = [
      'text', 'more *em* text', ' ', '   ', '    ', '\t', '\n', '\n', '\n', '\n\n', '# ', '#', '- ', '  - ', '   1. ', '2. ', '1) ',
      '* ', '+ ', '-', '***', '---', '===', '> ', '>', '> - ', '```', '~~~js', '| a ', '| b |', '|---|', '|-', ':-', '[ ] ', '[x] ',
      '**', '`', '<div>', 'https://a.example ', '[a](https://x.example)', '![i](https://x.example/i.png)', '~~', '\\',
    ]
    const next = random(42)
    for (let doc = 0; doc < 200; doc++) {
      const n = 5 + Math.floor(next() * 30)
      const text = Array.from({ length: n }, () => pieces[Math.floor(next() * pieces.length)]).join('')
      feed(text, chunks(text, doc, 4))
    }
  })

  it('parses the whole text when there are reference definitions', () => {
    let parsed = parseText(md, 'See [docs].\n\nMore')
    parsed = updateText(md, parsed, 'See [docs].\n\nMore\n\n[docs]: https://example.com')
    expect(parsed.stats.full).toBe(true)
    expect(render(parsed)).toContain('<a href="https://example.com"')
    parsed = updateText(md, parsed, 'See [docs].\n\nMore\n\n[docs]: https://example.com\n\nand more')
    expect(parsed.stats.full).toBe(true)
    expect(render(parsed)).toBe(full(parsed.source))
    // Blocks that come out the same keep their object.
    const again = updateText(md, parsed, `${parsed.source}!`)
    expect(again.blocks[0]).toBe(parsed.blocks[0])
  })

  it('parses the whole text when it does not extend the previous one', () => {
    const parsed = updateText(md, parseText(md, 'one\n\ntwo'), 'one\n\nthree')
    expect(parsed.stats).toEqual({ full: true, reparsedFrom: 0, parsedChars: 10 })
    expect(render(parsed)).toBe('<p>one</p><p>three</p>')
  })

  it('returns the previous result for the same text', () => {
    const parsed = parseText(md, 'same')
    expect(updateText(md, parsed, 'same')).toBe(parsed)
  })

  it('renders 128 KB of "**a " correctly', () => {
    const text = '**a '.repeat(32 * 1024)
    expect(full(text)).toBe(`<p>${text.trim()}</p>`)
    const nested = '*a **'.repeat(16 * 1024)
    expect(full(nested).startsWith('<p>')).toBe(true)
    expect(full('['.repeat(64 * 1024) + 'a')).toBe(`<p>${'['.repeat(64 * 1024)}a</p>`)
  })
})
