// The CommonMark spec's 652 examples (commonmark-spec 0.31.2, the version
// markdown-it 15 follows), run through the whole pipeline a reply takes:
// parseText (markdown-it with our configuration, split into blocks) and the
// React renderer. Two chat settings are turned off here because they are
// deliberate extensions, not CommonMark: breaks (every newline a <br>) and
// linkify (bare URLs). Tables, strikethrough, task lists, html: false,
// safeUrl and images-as-links all stay on, and the examples they change are
// listed below by number with the reason.

import { tests } from 'commonmark-spec'
import type { MarkdownIt } from 'markdown-it'
import { createElement, Fragment } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { parseText } from './blocks'
import { createParser } from './parser'
import { renderTokens } from './render'

const md = createParser({ breaks: false, linkify: false })

function render(markdown: string): string {
  const blocks = parseText(md, markdown).blocks
  return renderToStaticMarkup(
    createElement(Fragment, null, ...blocks.map((b, i) => createElement(Fragment, { key: i }, renderTokens(b.tokens, { breaks: false })))),
  )
}

const BLOCK_TAGS = new Set(
  'blockquote div h1 h2 h3 h4 h5 h6 hr li ol p pre table tbody td tfoot th thead tr ul'.split(' '),
)
/** Attributes that only our renderer adds (classes for components/Markdown.css, link targets). */
const OUR_ATTRIBUTES = new Set(['class', 'data-lang', 'target', 'rel'])

const decode = (s: string) =>
  s
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&quot;/g, '"')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')

/**
 * Puts the spec's HTML and ours in one form: entities decoded and escaped
 * the same way, attributes sorted, <br /> as <br>, the newlines the spec puts
 * between block tags dropped (outside <pre>), our classes, data-lang, target
 * and rel dropped, and the <div class="md-table"> around tables unwrapped.
 */
function normalize(html: string): string {
  let out = ''
  let inPre = 0
  let pendingText = ''
  let lastTag = ''
  const flushText = (nextTag: string) => {
    let text = pendingText
    pendingText = ''
    if (inPre === 0) {
      if (BLOCK_TAGS.has(lastTag) || lastTag === 'br') text = text.replace(/^\s+/, '')
      if (BLOCK_TAGS.has(nextTag)) text = text.replace(/\s+$/, '')
    }
    out += escape(decode(text))
  }
  for (const [part, closing, name, attrs] of html.matchAll(/<(\/?)([a-zA-Z][\w-]*)([^>]*)>|[^<]+|</g)) {
    if (name === undefined) {
      pendingText += part
      continue
    }
    const tag = name.toLowerCase()
    flushText(tag)
    if (tag === 'div' && (closing === '/' || /md-table/.test(attrs ?? ''))) {
      lastTag = 'table'
      continue
    }
    if (tag === 'pre') inPre += closing === '/' ? -1 : 1
    const kept = [...(attrs ?? '').matchAll(/([^\s=/]+)(?:="([^"]*)")?/g)]
      .filter(([, attr]) => !OUR_ATTRIBUTES.has(attr as string))
      .map(([, attr, value]) => `${(attr as string).toLowerCase()}="${escape(decode(value ?? ''))}"`)
      .sort()
    out += `<${closing}${tag}${kept.length > 0 ? ` ${kept.join(' ')}` : ''}>`
    lastTag = tag
  }
  flushText('')
  return out
}

/**
 * Examples whose expected HTML our configuration changes on purpose, by
 * reason. `undo` turns that one setting back to markdown-it's CommonMark
 * behaviour: the test checks that the example then matches the spec (so the
 * reason is the right one) and that with our setting it does not (so the
 * list stays true when markdown-it changes). Every other example must pass.
 */
const EXCEPTIONS: readonly { reason: string; undo: (md: MarkdownIt) => void; numbers: readonly number[] }[] = [
  {
    reason: 'html: false: raw HTML (blocks, inline tags, comments) is shown as text',
    undo: allowHtml,
    numbers: [
      21, 31, 148, 149, 150, 151, 152, 153, 154, 155, 156, 157, 158, 159, 160, 161, 162, 163, 164, 165, 166, 167, 168, 169,
      170, 171, 172, 173, 174, 175, 176, 177, 178, 179, 180, 181, 182, 183, 184, 185, 186, 187, 188, 189, 190, 191, 201, 308,
      309, 344, 475, 476, 477, 491, 494, 524, 613, 614, 615, 616, 617, 623, 630, 631, 642, 643,
    ],
  },
  {
    reason:
      'safeUrl: a relative (/url), empty or non-http(s)/mailto (irc:, a+b+c:d) target is not linked, ' +
      'and a definition with one is not a definition',
    undo: allowAnyUrl,
    numbers: [
      22, 23, 32, 33, 192, 193, 194, 195, 196, 198, 200, 202, 203, 204, 205, 206, 207, 208, 210, 214, 215, 216, 217, 218, 317,
      404, 419, 422, 433, 473, 474, 482, 483, 484, 485, 486, 487, 489, 492, 495, 496, 498, 499, 500, 501, 502, 503, 504, 505,
      506, 507, 509, 510, 512, 514, 515, 516, 518, 519, 521, 522, 527, 528, 529, 530, 532, 533, 534, 535, 537, 538, 539, 540,
      541, 542, 543, 544, 545, 549, 550, 553, 554, 555, 556, 557, 558, 559, 560, 561, 562, 563, 564, 565, 566, 567, 568, 569,
      570, 571, 592, 593, 596, 598, 599, 601,
    ],
  },
  {
    reason: 'images are never loaded: ![alt](url) is a link, and the spec images have relative URLs (safeUrl)',
    undo: (md) => {
      allowAnyUrl(md)
      md.core.ruler.disable('images_as_links')
    },
    numbers: [517, 520, 531, 572, 573, 574, 575, 576, 577, 578, 579, 580, 581, 582, 583, 584, 585, 586, 587, 588, 589, 591],
  },
  {
    reason: 'html: false and safeUrl both',
    undo: (md) => {
      allowHtml(md)
      allowAnyUrl(md)
    },
    numbers: [536],
  },
]

function allowHtml(md: MarkdownIt): void {
  md.set({ html: true })
}

function allowAnyUrl(md: MarkdownIt): void {
  md.validateLink = () => true
}

const PASSING = 458

const exceptionOf = new Map(EXCEPTIONS.flatMap((e) => e.numbers.map((n) => [n, e] as const)))

const examples = tests.map((t) => ({ ...t, markdown: t.markdown.replace(/→/g, '\t'), html: t.html.replace(/→/g, '\t') }))

describe('CommonMark spec', () => {
  it('normalises HTML the same way on both sides', () => {
    expect(normalize('<p>a<br />\nb</p>\n<pre><code class="language-js">x\n</code></pre>\n')).toBe(
      normalize('<p>a<br/>b</p><pre class="md-code" data-lang="js"><code>x\n</code></pre>'),
    )
    expect(normalize('<p>&quot;&#39;</p>')).toBe(normalize('<p>&quot;&#x27;</p>'))
    expect(normalize('<p>a</p>')).not.toBe(normalize('<p>b</p>'))
  })

  const results = examples.map((e) => ({ ...e, ours: render(e.markdown) }))
  const passes = (r: (typeof results)[number]) => normalize(r.ours) === normalize(r.html)

  it('passes every example that is not a listed exception', () => {
    const failing = results.filter((r) => !exceptionOf.has(r.number) && !passes(r))
    expect(failing.map((r) => ({ number: r.number, section: r.section, markdown: r.markdown, want: r.html, got: r.ours }))).toEqual([])
  })

  it('still differs on every listed exception, and passes once its setting is undone', () => {
    expect(results.filter((r) => exceptionOf.has(r.number) && passes(r)).map((r) => r.number)).toEqual([])
    const wrongReason = results.filter((r) => {
      const exception = exceptionOf.get(r.number)
      if (exception === undefined) return false
      const reference = createParser({ breaks: false, linkify: false })
      exception.undo(reference)
      return normalize(reference.render(r.markdown)) !== normalize(r.html)
    })
    expect(wrongReason.map((r) => r.number)).toEqual([])
  })

  it(`passes at least ${PASSING} of the 652 examples`, () => {
    expect(examples).toHaveLength(652)
    expect(exceptionOf.size).toBe(652 - PASSING)
    expect(results.filter(passes).length).toBeGreaterThanOrEqual(PASSING)
  })
})
