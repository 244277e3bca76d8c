import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from '../components/Markdown'
import { MAX_INLINE } from './parser'
import { safeUrl } from './safeUrl'

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text })).replace(/^<div class="md">|<\/div>$/g, '')

const LINK = 'target="_blank" rel="noopener noreferrer"'

describe('safeUrl', () => {
  it('allows absolute http, https and mailto only', () => {
    expect(safeUrl('https://example.com/a?b=1#c')).toBe('https://example.com/a?b=1#c')
    expect(safeUrl(' http://x.org ')).toBe('http://x.org/')
    expect(safeUrl('mailto:me@example.com')).toBe('mailto:me@example.com')
    for (const bad of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      '\u0001javascript:alert(1)',
      ' javascript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'data:image/png;base64,iVBORw0KGgo=',
      'vbscript:x',
      'file:///etc/passwd',
      'ftp://example.com/x',
      '/relative',
      '#top',
      '//evil.com',
      'wails://wails/index.html',
      'java%73cript:alert(1)',
      '',
    ]) {
      expect(safeUrl(bad), bad).toBeNull()
    }
  })
})

describe('inline markdown', () => {
  it('parses emphasis, code and strikethrough', () => {
    expect(html('a **b** *c* ***d*** ~~e~~ `f*g*` _h_ __i__')).toBe(
      '<p>a <strong>b</strong> <em>c</em> <em><strong>d</strong></em> <del>e</del> <code>f*g*</code> <em>h</em> <strong>i</strong></p>',
    )
    expect(html('**a *b* c** and *a **b** c*')).toBe('<p><strong>a <em>b</em> c</strong> and <em>a <strong>b</strong> c</em></p>')
  })

  it('leaves half-written or spaced delimiters as text', () => {
    expect(html('**bold but not yet')).toBe('<p>**bold but not yet</p>')
    expect(html('2 * 3 * 4 and snake_case_name and `open')).toBe('<p>2 * 3 * 4 and snake_case_name and `open</p>')
    expect(html('\\*not em\\*')).toBe('<p>*not em*</p>')
  })

  it('turns newlines into line breaks', () => {
    expect(html('Running ls…\nDone.')).toBe('<p>Running ls…<br/>Done.</p>')
    expect(html('hard  \nbreak')).toBe('<p>hard<br/>break</p>')
  })

  it('makes safe links that open without an opener', () => {
    expect(html('[docs](https://example.com "Title") <https://a.b/c> see https://x.org/p?q=1).')).toBe(
      `<p><a href="https://example.com" title="Title" ${LINK}>docs</a> ` +
        `<a href="https://a.b/c" ${LINK}>https://a.b/c</a> ` +
        `see <a href="https://x.org/p?q=1" ${LINK}>https://x.org/p?q=1</a>).</p>`,
    )
    expect(html('(see https://en.wikipedia.org/wiki/Foo_(bar))')).toContain('href="https://en.wikipedia.org/wiki/Foo_(bar)"')
    expect(html('www.example.com/a, me@example.com')).toBe(
      `<p><a href="http://www.example.com/a" ${LINK}>www.example.com/a</a>, <a href="mailto:me@example.com" ${LINK}>me@example.com</a></p>`,
    )
  })

  it('does not link file names that look like domains', () => {
    expect(html('see README.md, setup.py and main.go')).toBe('<p>see README.md, setup.py and main.go</p>')
  })

  it('never links unsafe targets and never loads images', () => {
    const out = html(
      '[click](javascript:alert(1)) [x](JAVASCRIPT:alert(1)) [y](data:text/html;base64,xx) [rel](/etc) ![pic](https://e.com/i.png) <javascript:alert(1)>',
    )
    expect(out).not.toMatch(/href="(?!https:\/\/e\.com\/i\.png")|<img/i)
    // An unsafe link is not a link: its markdown stays as text.
    expect(out).toContain('<p>[click](javascript:alert(1)) [x](JAVASCRIPT:alert(1)) [y](data:text/html;base64,xx) [rel](/etc) ')
    expect(out).toContain('&lt;javascript:alert(1)&gt;')
    expect(out).toContain(`<a href="https://e.com/i.png" ${LINK}>pic</a>`)
  })

  it('shows images as links to them, with the alt text or the address', () => {
    expect(html('![a *cat*](https://e.com/c.png "Cat") ![](https://e.com/x.png)')).toBe(
      `<p><a href="https://e.com/c.png" title="Cat" ${LINK}>a cat</a> <a href="https://e.com/x.png" ${LINK}>https://e.com/x.png</a></p>`,
    )
    // An image inside a link is its alt text: links do not nest.
    expect(html('[![logo](https://e.com/l.png)](https://e.com)')).toBe(`<p><a href="https://e.com" ${LINK}>logo</a></p>`)
    expect(html('![x](javascript:alert(1))')).toBe('<p>![x](javascript:alert(1))</p>')
  })

  it('keeps raw HTML as text', () => {
    const out = html('<script>alert(1)</script> <img src=x onerror=alert(1)> <a href="javascript:x" onclick="y">z</a>')
    expect(out).not.toMatch(/<script|<img|<a /)
    expect(out).toContain('&lt;script&gt;')
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;')
  })

  it('does not nest links', () => {
    expect(html('[a https://x.org b](https://y.org)')).toBe(`<p><a href="https://y.org" ${LINK}>a https://x.org b</a></p>`)
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
        '<pre class="md-code" data-lang="js"><code>const a = &quot;&lt;b&gt;&quot; &amp;&amp; 1 &lt; 2\n</code></pre>',
    )
  })

  it('keeps paragraphs in loose lists and renders setext headings and indented code', () => {
    expect(html('- a\n\n- b')).toBe('<ul><li><p>a</p></li><li><p>b</p></li></ul>')
    expect(html('Title\n=====\n\n    code <x>')).toBe('<h1>Title</h1><pre class="md-code"><code>code &lt;x&gt;\n</code></pre>')
  })

  it('runs an unclosed fence to the end while a reply streams', () => {
    expect(html('Here:\n```py\nprint(1)\n')).toBe('<p>Here:</p><pre class="md-code" data-lang="py"><code>print(1)\n</code></pre>')
  })

  it('tidies the language of a fence', () => {
    expect(html('```c++ "title" x\nx\n```')).toContain('data-lang="c++"')
    expect(html('```"><script>\nx\n```')).toContain('<pre class="md-code" data-lang="script"><code>x\n</code></pre>')
  })

  it('renders pipe tables with alignment', () => {
    expect(html('| a | b |\n|:--|--:|\n| 1 | `x\\|y` |\n| 2 |')).toBe(
      '<div class="md-table"><table><thead><tr><th style="text-align:left">a</th><th style="text-align:right">b</th></tr></thead>' +
        '<tbody><tr><td style="text-align:left">1</td><td style="text-align:right"><code>x|y</code></td></tr>' +
        '<tr><td style="text-align:left">2</td><td style="text-align:right"></td></tr></tbody></table></div>',
    )
  })

  it('renders task lists as disabled checkboxes', () => {
    expect(html('- [ ] todo\n- [x] done *well*\n- [y] not a task\n- \\[ ] escaped')).toBe(
      '<ul>' +
        '<li class="task-list-item"><input type="checkbox" class="md-task" disabled="" readOnly=""/> todo</li>' +
        '<li class="task-list-item"><input type="checkbox" class="md-task" disabled="" readOnly="" checked=""/> done <em>well</em></li>' +
        '<li>[y] not a task</li><li>[ ] escaped</li></ul>',
    )
    expect(html('1. [X] ordered')).toBe(
      '<ol><li class="task-list-item"><input type="checkbox" class="md-task" disabled="" readOnly="" checked=""/> ordered</li></ol>',
    )
    // A task marker outside a list item is text.
    expect(html('[ ] not in a list')).toBe('<p>[ ] not in a list</p>')
  })

  it('keeps a plain reply a single paragraph', () => {
    expect(html('You said: hello there')).toBe('<p>You said: hello there</p>')
    expect(html('')).toBe('')
  })

  it('does not start an ordered list mid-paragraph unless it starts at 1', () => {
    expect(html('It was\n2020. Then')).toBe('<p>It was<br/>2020. Then</p>')
    expect(html('Steps:\n1. a\n2. b')).toBe('<p>Steps:</p><ol><li>a</li><li>b</li></ol>')
  })

  it('follows CommonMark for sub-lists and survives deep nesting', () => {
    // A sub-list needs the item's content indent (3 columns after "1. ").
    expect(html('1. a\n   - b\n2. c')).toBe('<ol><li>a<ul><li>b</li></ul></li><li>c</li></ol>')
    const deep = Array.from({ length: 40 }, (_, i) => `${'>'.repeat(i + 1)} x`).join('\n')
    expect(() => html(deep)).not.toThrow()
    expect(() => html('>'.repeat(5000) + ' x\n' + '- '.repeat(5000) + 'y')).not.toThrow()
  })

  it('resolves reference links defined anywhere in the text', () => {
    expect(html('See [the docs][d] and [d].\n\n[d]: https://example.com/docs "Docs"')).toBe(
      `<p>See <a href="https://example.com/docs" title="Docs" ${LINK}>the docs</a> and <a href="https://example.com/docs" title="Docs" ${LINK}>d</a>.</p>`,
    )
    expect(html('[x][bad]\n\n[bad]: javascript:alert(1)')).toBe('<p>[x][bad]</p><p>[bad]: javascript:alert(1)</p>')
  })
})

describe('a runaway paragraph', () => {
  it('is shown as its text past MAX_INLINE, and parsed up to it', () => {
    const unit = '**b** [x](javascript:alert(1)) <b>y</b> https://example.com '
    const long = unit.repeat(Math.ceil((MAX_INLINE + 1) / unit.length))
    const out = html(long)
    expect(out.startsWith('<p>**b** [x](javascript:alert(1)) &lt;b&gt;y&lt;/b&gt; https://example.com')).toBe(true)
    expect(out).not.toMatch(/<strong>|<a |<b>/)
    const short = unit.repeat(Math.floor(MAX_INLINE / unit.length))
    expect(short.length).toBeLessThanOrEqual(MAX_INLINE)
    expect(html(short)).toMatch(/^<p><strong>b<\/strong> \[x\]\(javascript:alert\(1\)\) &lt;b&gt;y&lt;\/b&gt; <a href="https:\/\/example.com"/)
  })
})
