import { describe, expect, it } from 'vitest'
import { handleLinkClick, type LinkClick } from './links'

function click(href: string | null): LinkClick & { prevented: boolean } {
  const c = {
    href,
    prevented: false,
    preventDefault() {
      c.prevented = true
    },
  }
  return c
}

describe('handleLinkClick', () => {
  it('lets a browser tab open http, https and mailto links itself (a new tab)', () => {
    for (const href of ['https://example.com/a?b=1#c', 'http://example.com', 'mailto:someone@example.com']) {
      const c = click(href)
      expect(handleLinkClick(c, undefined)).toBeNull()
      expect(c.prevented).toBe(false)
    }
  })

  it('hands http, https and mailto links to the system browser in the desktop window', () => {
    const opened: string[] = []
    const open = async (url: string) => {
      opened.push(url)
    }
    for (const href of ['https://example.com/wiki/Foo_(bar)', 'HTTP://Example.com', 'mailto:a@example.com']) {
      const c = click(href)
      expect(handleLinkClick(c, open)).not.toBeNull()
      expect(c.prevented).toBe(true)
    }
    expect(opened).toEqual(['https://example.com/wiki/Foo_(bar)', 'http://example.com/', 'mailto:a@example.com'])
  })

  it('refuses every other scheme, and relative links, in both', () => {
    const opened: string[] = []
    const open = async (url: string) => {
      opened.push(url)
    }
    const bad = [
      'javascript:alert(1)',
      ' JavaScript:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'vbscript:msgbox',
      'wails://wails/index.html',
      'ftp://example.com/x',
      'slack://open',
      '/api/status',
      '#/c/x',
      '',
    ]
    for (const href of bad) {
      for (const opener of [undefined, open]) {
        const c = click(href)
        expect(handleLinkClick(c, opener)).toBeNull()
        expect(c.prevented, href).toBe(true)
      }
    }
    expect(opened).toEqual([])
  })

  it('leaves clicks that are not on a link alone', () => {
    const c = click(null)
    expect(handleLinkClick(c, async () => undefined)).toBeNull()
    expect(c.prevented).toBe(false)
  })
})
