// Hostile markdown: whatever a model (or a page it quotes) writes, the
// rendered reply has only the tags and attributes the renderer makes, and
// every link goes to an http(s) or mailto address (a citation of a message,
// the one in-app link, is tested in citation.test.ts; no other wisp: target
// becomes a link).

import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from '../components/Markdown'

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }))

const PROBES = [
  // Link destinations
  '[a](javascript:alert(1))',
  '[a](JaVaScRiPt:alert(1))',
  '[a]( javascript:alert(1) )',
  '[a](<javascript:alert(1)>)',
  '[a](<java\tscript:alert(1)>)',
  '[a](<\tjavascript:alert(1)>)',
  '[a](java\\tscript:alert(1))',
  '[a](javascript&#58;alert(1))',
  '[a](&#106;avascript:alert(1))',
  '[a](&#x6A;&#x61;&#x76;&#x61;&#x73;&#x63;&#x72;&#x69;&#x70;&#x74;:alert(1))',
  '[a](javas&#99;ript:alert(1))',
  '[a](jav&#x09;ascript:alert(1))',
  '[a](&#0000106;avascript:alert(1))',
  '[a](%6Aavascript:alert(1))',
  '[a](javascript%3Aalert(1))',
  '[a](\u0001javascript:alert(1))',
  '[a](\u00a0javascript:alert(1))',
  '[a](ｊａｖａｓｃｒｉｐｔ:alert(1))',
  '[a](vbscript:msgbox(1))',
  '[a](VBScript:msgbox(1))',
  '[a](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
  '[a](data:image/png;base64,iVBORw0KGgo=)',
  '[a](data:image/svg+xml,<svg/onload=alert(1)>)',
  '[a](file:///etc/passwd)',
  '[a](//evil.example/x)',
  '[a](/relative)',
  '[a](wails://wails/index.html)',
  // wisp: targets that are not exactly a citation of a message (citation.ts)
  '[a](wisp://settings)',
  '[a](wisp://message/c1)',
  '[a](wisp://message/c1/m1/extra)',
  '[a](wisp://message/c1/m1?x=javascript:alert(1))',
  '[a](wisp://message/c1/m1#x)',
  '[a](wisp://message/c%2F1/m1)',
  '[a](wisp://message/../m1)',
  '[a](wisp://message/c1/m"onmouseover="alert(1))',
  '[a](wisp:message/c1/m1)',
  '[a](WISP://message/c1/m1)',
  '[a](wisp://MESSAGE/c1/m1)',
  '[a](wisp://message/c1/javascript:alert(1))',
  '[a](javascript:wisp://message/c1/m1)',
  '<wisp://message/c1/m1>',
  'wisp://message/c1/m1',
  '![a](wisp://message/c1/m1)',
  '[a](https://ok.example "x\\" onmouseover=\\"alert(1)")',
  '[a](https://ok.example/"onmouseover="alert(1))',
  // Reference definitions
  '[a][x]\n\n[x]: javascript:alert(1)',
  '[a][x]\n\n[x]: <javascript:alert(1)>',
  '[x]\n\n[x]: data:text/html,<script>alert(1)</script>',
  // Autolinks and bare links
  '<javascript:alert(1)>',
  '<JAVASCRIPT:alert(1)>',
  '<vbscript:msgbox(1)>',
  '<data:text/html,<script>alert(1)</script>>',
  '<jav&#x61;script:alert(1)>',
  '<file:///etc/passwd>',
  'javascript:alert(1) and www.javascript:alert(1)',
  'https://ok.example/<script>alert(1)</script>',
  'http://ok.example/"onmouseover="alert(1)',
  'mailto:javascript:alert(1)',
  // Images
  '![a](javascript:alert(1))',
  '![a](data:image/svg+xml;base64,PHN2Zy8+)',
  '![a](https://ok.example/x.png" onerror="alert(1))',
  '![a" onerror="alert(1)](https://ok.example/x.png)',
  '![<img src=x onerror=alert(1)>](https://ok.example/x.png)',
  '[![x](javascript:alert(1))](https://ok.example)',
  '[![x](https://ok.example/i.png)](javascript:alert(1))',
  // Raw HTML, inline and as blocks
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<a href="javascript:alert(1)">x</a>',
  '<style>body{display:none}</style>',
  '<!-- <script>alert(1)</script> -->',
  '<details open ontoggle=alert(1)>',
  '<div>\n<script>alert(1)</script>\n</div>',
  '<form action=javascript:alert(1)><input type=submit></form>',
  '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
  '<base href="javascript:alert(1)//">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  // Raw HTML in other places
  '`<script>alert(1)</script>`',
  '```"><img src=x onerror=alert(1)>\n<script>alert(1)</script>\n```',
  '| a |\n|---|\n| <img src=x onerror=alert(1)> |',
  '[<img src=x onerror=alert(1)>](https://ok.example)',
  '- [x] <script>alert(1)</script>',
  '> <iframe src=javascript:alert(1)>',
  '# <svg onload=alert(1)>',
]

const ALLOWED: Record<string, readonly string[]> = {
  a: ['href', 'title', 'target', 'rel'],
  blockquote: [],
  br: [],
  code: [],
  del: [],
  div: ['class'],
  em: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  hr: [],
  input: ['type', 'class', 'checked', 'disabled', 'readOnly'],
  li: ['class'],
  ol: ['start'],
  p: [],
  pre: ['class', 'data-lang'],
  strong: [],
  table: [],
  tbody: [],
  td: ['style'],
  th: ['style'],
  thead: [],
  tr: [],
  ul: [],
}

function decode(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The problems in rendered HTML: unknown tags or attributes, and links that are not http(s) or mailto. */
function problems(out: string): string[] {
  const found: string[] = []
  for (const [, name, attrs] of out.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)) {
    const allowed = ALLOWED[name as string]
    if (allowed === undefined) {
      found.push(`tag <${name}>`)
      continue
    }
    for (const [, attr, value] of (attrs as string).matchAll(/\s([^\s=/]+)(?:="([^"]*)")?/g)) {
      if (!allowed.includes(attr as string)) found.push(`attribute ${attr} on <${name}>`)
      const decoded = decode(value ?? '')
      if (attr === 'href' && !/^(https?:\/\/|mailto:)/i.test(decoded)) found.push(`href ${decoded}`)
      if (attr === 'type' && decoded !== 'checkbox') found.push(`input type ${decoded}`)
      if (attr === 'style' && !/^text-align:(left|center|right)$/.test(decoded)) found.push(`style ${decoded}`)
    }
  }
  return found
}

describe('hostile markdown', () => {
  it.each(PROBES)('renders %j harmlessly', (probe) => {
    const out = html(probe)
    expect(problems(out)).toEqual([])
    expect(out).not.toMatch(/<[^>]*(?:javascript|vbscript|data):/i)
  })

  it('shows the text of every probe rather than dropping it', () => {
    expect(html('<script>alert(1)</script>')).toBe('<div class="md"><p>&lt;script&gt;alert(1)&lt;/script&gt;</p></div>')
    expect(html('[a](javascript:alert(1))')).toBe('<div class="md"><p>[a](javascript:alert(1))</p></div>')
    expect(html('<img src=x onerror=alert(1)>')).toBe('<div class="md"><p>&lt;img src=x onerror=alert(1)&gt;</p></div>')
  })

  it('stays harmless while a probe streams in', () => {
    for (const probe of PROBES) {
      for (let i = 1; i <= probe.length; i++) expect(problems(html(probe.slice(0, i))), probe.slice(0, i)).toEqual([])
    }
  })

  it('finds problems when there are some (the checker itself works)', () => {
    expect(problems('<p><img src=x></p>')).toEqual(['tag <img>'])
    expect(problems('<a href="javascript:x" onclick="y">')).toEqual(['href javascript:x', 'attribute onclick on <a>'])
    expect(problems('<a href="&#x6A;avascript:x">')).toEqual(['href &#x6A;avascript:x'])
  })
})
