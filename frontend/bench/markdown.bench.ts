// Markdown benchmarks (not part of `npm test`). Run from frontend/:
//
//   npx vitest bench --run bench/markdown.bench.ts
//
// It times the whole pipeline a reply takes (markdown-it parse, split into
// blocks, React render to a string) on 32 KB and 128 KB of "**a " (the
// input the old hand-written parser took 6 s and 63 s on), and an 8,000-token
// reply fed token by token through the incremental path (updateText), against
// parsing the whole text at every token, and the worst case for parsing by
// blocks (a reply that is one long code block). It also prints, once, the
// totals of one token-by-token feed: parse time, the slowest token, and how
// many characters markdown-it was handed.

import { createElement, Fragment } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { bench, describe } from 'vitest'
import { parseText, updateText, type MdBlock, type ParsedText } from '../src/markdown/blocks'
import { chatParser } from '../src/markdown/parser'
import { renderTokens } from '../src/markdown/render'

const md = chatParser
const options = { breaks: true }

function renderBlocks(blocks: readonly MdBlock[]): string {
  return renderToStaticMarkup(
    createElement(Fragment, null, ...blocks.map((b, i) => createElement(Fragment, { key: i }, renderTokens(b.tokens, options)))),
  )
}

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

const SECTION = [
  '## Step {n}: what to change',
  '',
  'The handler reads the **whole body** before it checks the size, so a large upload is held in memory. ' +
    'Read it through `http.MaxBytesReader` instead, and see https://pkg.go.dev/net/http for the details.',
  '',
  '1. Wrap the body:',
  '   ```go',
  '   r.Body = http.MaxBytesReader(w, r.Body, 1<<20)',
  '   if err := json.NewDecoder(r.Body).Decode(&req); err != nil {',
  '       return fmt.Errorf("decode request: %w", err)',
  '   }',
  '   ```',
  '2. Return *413* when the limit is hit.',
  '3. Add a test with a body of 2 MB.',
  '',
  '| Case | Before | After |',
  '|:-----|-------:|------:|',
  '| 1 KB | 0.1 ms | 0.1 ms |',
  '| 2 MB | 14 MB held | rejected |',
  '',
  '> Note: the limit applies per request, not per connection.',
  '',
  '- [x] body limited',
  '- [ ] metrics for rejected requests',
  '',
].join('\n')

/** Cuts text into `count` tokens of 1 to 7 characters (about 4 on average), as the stream delivers a reply. */
function tokens(text: string, count: number): string[] {
  const next = random(1)
  const out: string[] = []
  for (let i = 0; out.length < count; ) {
    const len = 1 + Math.floor(next() * 7)
    out.push(text.slice(i, i + len))
    i += len
  }
  return out
}

function repeatTo(unit: (n: number) => string, length: number): string {
  let text = ''
  for (let n = 1; text.length < length; n++) text += unit(n)
  return text
}

const STARS_32K = '**a '.repeat(8 * 1024)
const STARS_128K = '**a '.repeat(32 * 1024)
/** An 8,000-token reply of headings, paragraphs, lists, code, tables and quotes. */
const REPLY = tokens(repeatTo((n) => SECTION.replace('{n}', String(n)), 40_000), 8000)
/** The worst case for parsing by blocks: an 8,000-token reply that is one code block, parsed again whole at every token. */
const ONE_BLOCK = tokens(`\`\`\`go\n${repeatTo(() => 'for i := 0; i < n; i++ { total += values[i] * weight }\n', 40_000)}`, 8000)

interface Feed {
  parsed: ParsedText | null
  totalMs: number
  slowestMs: number
  parsedChars: number
}

/** Feeds a reply token by token; with render, also renders the blocks that changed (what React re-renders). */
function feed(reply: readonly string[], render: boolean): Feed {
  const result: Feed = { parsed: null, totalMs: 0, slowestMs: 0, parsedChars: 0 }
  let text = ''
  for (const token of reply) {
    text += token
    const start = performance.now()
    const prev = result.parsed
    const next = updateText(md, prev, text)
    const ms = performance.now() - start
    result.totalMs += ms
    result.slowestMs = Math.max(result.slowestMs, ms)
    result.parsedChars += next.stats.parsedChars
    if (render) renderBlocks(next.blocks.filter((b, i) => prev?.blocks[i] !== b))
    result.parsed = next
  }
  return result
}

function feedWhole(reply: readonly string[]): void {
  let text = ''
  for (const token of reply) {
    text += token
    parseText(md, text)
  }
}

function describeFeed(name: string, reply: readonly string[]): string {
  const once = feed(reply, false)
  const size = once.parsed?.text.length ?? 0
  return [
    `${name} (${reply.length} tokens, ${(size / 1024).toFixed(1)} KB, ${once.parsed?.blocks.length} blocks), fed token by token:`,
    `  total parse time ${once.totalMs.toFixed(0)} ms, ${((once.totalMs * 1000) / reply.length).toFixed(0)} µs per token, slowest token ${once.slowestMs.toFixed(2)} ms`,
    `  characters handed to markdown-it: ${(once.parsedChars / 1024).toFixed(0)} KB in all, ${(once.parsedChars / reply.length).toFixed(0)} per token`,
  ].join('\n')
}

function summary(): void {
  const start = performance.now()
  renderBlocks(parseText(md, STARS_128K).blocks)
  const stars = performance.now() - start
  const lines = [
    describeFeed('Reply', REPLY),
    describeFeed('One code block', ONE_BLOCK),
    `128 KB of "**a ": parsed and rendered once in ${stars.toFixed(0)} ms`,
  ]
  console.log(lines.join('\n'))
}

summary()

describe('pathological input, parse and render', () => {
  bench('32 KB of "**a "', () => {
    renderBlocks(parseText(md, STARS_32K).blocks)
  })
  bench('128 KB of "**a "', () => {
    renderBlocks(parseText(md, STARS_128K).blocks)
  })
})

/** A feed takes seconds: a few runs are enough. */
const FEW = { iterations: 5, warmupIterations: 1, time: 0, warmupTime: 0 }

describe('8,000-token reply fed token by token', () => {
  bench('incremental parse (updateText)', () => feed(REPLY, false), FEW)
  bench('incremental parse + render of the changed blocks', () => feed(REPLY, true), FEW)
  bench('whole text parsed at every token (for comparison)', () => feedWhole(REPLY), { ...FEW, iterations: 1, warmupIterations: 0 })
  bench('one code block: incremental parse (worst case)', () => feed(ONE_BLOCK, false), FEW)
})
