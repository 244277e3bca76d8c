// Citations of messages in replies (citation.ts): exactly
// wisp://message/<conversationId>/<messageId> renders as an in-app link with
// the citation's label, its ids as data attributes and no target; anything
// else with a wisp: scheme is no link at all, and a click opens the message
// in the app, never the browser.

import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it } from 'vitest'
import { Markdown } from '../components/Markdown'
import { citationHref, parseCitation } from './citation'
import { handleLinkClick } from './links'

const html = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }))

const UUID_C = '7b0c9c4e-2f1a-4d8e-9a55-0c1d2e3f4a5b'
const UUID_M = '5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d'

describe('parseCitation', () => {
  it('reads the conversation and message of a citation', () => {
    expect(parseCitation(`wisp://message/${UUID_C}/${UUID_M}`)).toEqual({ conversationId: UUID_C, messageId: UUID_M })
    expect(parseCitation('wisp://message/c_1/m-2')).toEqual({ conversationId: 'c_1', messageId: 'm-2' })
    expect(citationHref({ conversationId: 'c1', messageId: 'm1' })).toBe('wisp://message/c1/m1')
  })

  it('refuses anything that is not exactly a citation', () => {
    for (const href of [
      '',
      'wisp://message/',
      'wisp://message/c1',
      'wisp://message/c1/',
      'wisp://message//m1',
      'wisp://message/c1/m1/',
      'wisp://message/c1/m1/x',
      'wisp://message/c1/m1?x=1',
      'wisp://message/c1/m1#top',
      'wisp://message/c%2F1/m1',
      'wisp://message/../m1',
      'wisp://message/c.1/m1',
      'wisp://message/c1/m 1',
      ' wisp://message/c1/m1',
      'wisp://message/c1/m1\n',
      'wisp://settings',
      'wisp:message/c1/m1',
      'WISP://message/c1/m1',
      'wisp://Message/c1/m1',
      'javascript:wisp://message/c1/m1',
      'https://message/c1/m1',
      `wisp://message/${'c'.repeat(129)}/m1`,
    ]) {
      expect(parseCitation(href), JSON.stringify(href)).toBeNull()
    }
  })
})

describe('a citation in a reply', () => {
  it('renders as an in-app link with its label, and the ids it opens', () => {
    const out = html(`As you said [Island trip, 27 Nov](wisp://message/${UUID_C}/${UUID_M}), book early.`)
    expect(out).toBe(
      '<div class="md"><p>As you said ' +
        `<a href="wisp://message/${UUID_C}/${UUID_M}" class="md-citation" data-testid="citation" data-conversation-id="${UUID_C}" data-message-id="${UUID_M}" title="Open this message">Island trip, 27 Nov</a>` +
        ', book early.</p></div>',
    )
    // No new window, no opener games: it is not an outside link.
    expect(out).not.toContain('target=')
  })

  it('keeps a hostile label as text', () => {
    const out = html('[<img src=x onerror=alert(1)> **b**](wisp://message/c1/m1)')
    expect(out).toContain('data-testid="citation"')
    expect(out).not.toContain('<img')
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt; <strong>b</strong></a>')
  })

  it('leaves every other wisp: target as text, not a link', () => {
    for (const probe of [
      '[a](wisp://settings)',
      '[a](wisp://message/c1)',
      '[a](wisp://message/c1/m1/extra)',
      '[a](wisp://message/c1/m1?q=1)',
      '[a](wisp://message/c1/m"x)',
      '<wisp://message/c1/m1>',
      'wisp://message/c1/m1',
      '![a](wisp://message/c1/m1)',
      '[a][r]\n\n[r]: wisp://message/c1/m1/x',
    ]) {
      const out = html(probe)
      expect(out, probe).not.toContain('<a')
      expect(out, probe).not.toContain('href')
    }
  })

  it('a reference-style citation works like an inline one', () => {
    expect(html('[Trip][r]\n\n[r]: wisp://message/c1/m1')).toContain('data-message-id="m1"')
  })

  it('keeps refusing javascript: and friends next to citations', () => {
    const out = html('[ok](wisp://message/c1/m1) [bad](javascript:alert(1)) [bad2](data:text/html,x) [bad3](vbscript:x)')
    expect(out.match(/<a /g)).toHaveLength(1)
    expect(out).not.toMatch(/href="(javascript|data|vbscript):/i)
    expect(out).toContain('[bad](javascript:alert(1))')
  })
})

describe('a click on a citation', () => {
  const clickOn = (href: string) => {
    const c = {
      href,
      prevented: false,
      preventDefault() {
        c.prevented = true
      },
    }
    return c
  }

  it('opens the message in the app, never outside, in a tab and in the desktop window', () => {
    const opened: unknown[] = []
    const outside: string[] = []
    const open = async (url: string) => {
      outside.push(url)
    }
    for (const openOutside of [undefined, open]) {
      const c = clickOn('wisp://message/c1/m1')
      expect(handleLinkClick(c, openOutside, (citation) => opened.push(citation))).toBeNull()
      expect(c.prevented).toBe(true)
    }
    expect(opened).toEqual([
      { conversationId: 'c1', messageId: 'm1' },
      { conversationId: 'c1', messageId: 'm1' },
    ])
    expect(outside).toEqual([])
  })

  it('is refused (nothing opens) without a page to open it in, and for a wisp: URL that is no citation', () => {
    const c = clickOn('wisp://message/c1/m1')
    expect(handleLinkClick(c, undefined)).toBeNull()
    expect(c.prevented).toBe(true)
    const opened: unknown[] = []
    const other = clickOn('wisp://settings')
    expect(handleLinkClick(other, undefined, (x) => opened.push(x))).toBeNull()
    expect(other.prevented).toBe(true)
    expect(opened).toEqual([])
  })
})
