import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from '../components/Markdown'
import { parseInline } from './inline'
import { parseMarkdown } from './parse'
import { safeUrl } from './safeUrl'

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text })).replace(/^<div class="md">|<\/div>$/g, '')

describe('safeUrl', () => {
  it('allows absolute http, https and mailto only', () => {
    expect(safeUrl('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c')
    expect(safeUrl(' http://x.org ')).toBe('http://x.org/')
    expect(safeUrl('mailto:me@example.com')).toBe('mailto:me@example.com')
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      '\u0001javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:x',
      'file:///etc/passwd',
      '/relative',
      '#top',
      '//evil.com',
      'wails://wails/index.html',
      '',
    ]) {
      expect(safeUrl(bad), bad).toBeNull()
    }
  })
})

describe('inline markdown', () => {
  it('parses emphasis, code and strikethrough', () => {
    expect(html('a **b** *c* ***d*** ~~e~~ `f*g*` _h_ __i__')).toBe(
      '<p>a <strong>b</strong> <em>c</em> <strong><em>d</em></strong> <del>e</del> <code>f*g*</code> <em>h</em> <strong>i</strong></p>',
    )
    expect(html('**a *b* c** and *a **b** c*')).toBe(
      '<p><strong>a <em>b</em> c</strong> and <em>a <strong>b</strong> c</em></p>',
    )
  })

  it('leaves half-written or spaced delimiters as text', () => {
    expect(html('**bold but not yet')).toBe('<p>**bold but not yet</p>')
    expect(html('2 * 3 * 4 and snake_case_name and `open')).toBe('<p>2 * 3 * 4 and snake_case_name and `open</p>')
    expect(html('\\*not em\\*')).toBe('<p>*not em*</p>')
  })

  it('turns newlines into line breaks', () => {
    expect(html('Running ls…\nDone.')).toBe('<p>Running ls…<br/>Done.</p>')
  })

  it('makes safe links that open without an opener', () => {
    expect(html('[docs](https://example.com "Title") <https://a.b/c> see https://x.org/p?q=1).')).toBe(
      '<p><a href="https://example.com/" title="Title" target="_blank" rel="noopener noreferrer">docs</a> ' +
        '<a href="https://a.b/c" target="_blank" rel="noopener noreferrer">https://a.b/c</a> ' +
        'see <a href="https://x.org/p?q=1" target="_blank" rel="noopener noreferrer">https://x.org/p?q=1</a>).</p>',
    )
    expect(html('(see https://en.wikipedia.org/wiki/Foo_(bar))')).toContain('href="https://en.wikipedia.org/wiki/Foo_(bar)"')
  })

  it('never links unsafe targets and never loads images', () => {
    const out = html(
      '[click](javascript:alert(1)) [x](JAVASCRIPT:alert(1)) [y](data:text/html;base64,xx) [rel](/etc) ![pic](https://e.com/i.png) <javascript:alert(1)>',
    )
    expect(out).not.toMatch(/href="(?!https:\/\/e\.com\/i\.png")|<img/i)
    expect(out).toContain('<p>click x y rel ')
    expect(out).toContain('&lt;javascript:alert(1)&gt;')
    expect(out).toContain('<a href="https://e.com/i.png" target="_blank" rel="noopener noreferrer">pic</a>')
  })

  it('keeps raw HTML as text', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:x" onclick="y">z</a>')
    expect(out).not.toMatch(/<script|<img|<a /)
    expect(out).toContain('&lt;script&gt;')
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('does not nest links', () => {
    expect(parseInline('[a https://x.org b](https://y.org)')).toEqual([
      { type: 'link', href: 'https://y.org/', children: [{ type: 'text', text: 'a https://x.org b' }] },
    ])
  })
})

describe('block markdown', () => {
  it('renders headings, lists, quotes, rules and code', () => {
    const text = [
      '# Title',
      'Intro line',
      '',
      '- one',
      '- two **bold**',
      '  - nested',
      '',
      '3. three',
      '4. four',
      '',
      '> quoted',
      '> more',
      '',
      '---',
      '```js',
      'const a = "<b>" && 1 < 2',
      '```',
    ].join('\n')
    expect(html(text)).toBe(
      '<h1>Title</h1><p>Intro line</p>' +
        '<ul><li>one</li><li>two <strong>bold</strong><ul><li>nested</li></ul></li></ul>' +
        '<ol start="3"><li>three</li><li>four</li></ol>' +
        '<blockquote><p>quoted<br/>more</p></blockquote><hr/>' +
        '<pre class="md-code" data-lang="js"><code>const a = &quot;&lt;b&gt;&quot; &amp;&amp; 1 &lt; 2</code></pre>',
    )
  })

  it('runs an unclosed fence to the end while a reply streams', () => {
    expect(parseMarkdown('Here:\n```py\nprint(1)\n')).toEqual([
      { type: 'paragraph', children: [{ type: 'text', text: 'Here:' }] },
      { type: 'code', lang: 'py', text: 'print(1)\n' },
    ])
  })

  it('renders pipe tables with alignment', () => {
    expect(html('| a | b |\n|:--|--:|\n| 1 | `x|y` |\n| 2 |')).toBe(
      '<div class="md-table"><table><thead><tr><th style="text-align:left">a</th><th style="text-align:right">b</th></tr></thead>' +
        '<tbody><tr><td style="text-align:left">1</td><td style="text-align:right"><code>x|y</code></td></tr>' +
        '<tr><td style="text-align:left">2</td><td style="text-align:right"></td></tr></tbody></table></div>',
    )
  })

  it('keeps a plain reply a single paragraph', () => {
    expect(html('You said: hello there')).toBe('<p>You said: hello there</p>')
    expect(html('')).toBe('')
  })

  it('does not start an ordered list mid-paragraph unless it starts at 1', () => {
    expect(parseMarkdown('It was\n2020. Then')).toHaveLength(1)
    expect(parseMarkdown('Steps:\n1. a\n2. b')).toMatchObject([{ type: 'paragraph' }, { type: 'list', ordered: true }])
  })

  it('handles 2-space sub-lists under ordered items and survives deep nesting', () => {
    expect(html('1. a\n  - b\n2. c')).toBe('<ol><li>a<ul><li>b</li></ul></li><li>c</li></ol>')
    const deep = Array.from({ length: 40 }, (_, i) => `${'>'.repeat(i + 1)} x`).join('\n')
    expect(() => html(deep)).not.toThrow()
  })
})
