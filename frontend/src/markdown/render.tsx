// markdown-it tokens to React elements, without dangerouslySetInnerHTML:
// text is always text (React escapes it), raw HTML tokens (there are none
// with html: false) would be shown as text, and a link is only made when its
// target passes safeUrl, again here, and then opens in a new window without
// an opener; a citation of a message (citation.ts) is an in-app link. The structure and classes are the ones components/Markdown.css knows:
// <pre class="md-code" data-lang>, <div class="md-table"><table>, <del>.

import type { Token } from 'markdown-it'
import { createElement, Fragment, type ReactNode } from 'react'
import { parseCitation } from './citation'
import { safeUrl } from './safeUrl'

export interface RenderOptions {
  /** A soft line break (a newline inside a paragraph) is shown as <br>. */
  breaks: boolean
}

interface Frame {
  token: Token | null
  children: ReactNode[]
}

/** Renders a list of markdown-it tokens (block or inline) as React nodes. */
export function renderTokens(tokens: readonly Token[], options: RenderOptions): ReactNode[] {
  const root: Frame = { token: null, children: [] }
  const stack: Frame[] = [root]
  const top = () => stack[stack.length - 1] as Frame
  for (const token of tokens) {
    if (token.nesting === 1) {
      stack.push({ token, children: [] })
    } else if (token.nesting === -1) {
      if (stack.length > 1) closeFrame(stack.pop() as Frame, top())
    } else {
      const parent = top()
      parent.children.push(leaf(token, parent.children.length, options))
    }
  }
  while (stack.length > 1) closeFrame(stack.pop() as Frame, top())
  return root.children
}

function closeFrame(frame: Frame, parent: Frame): void {
  parent.children.push(element(frame.token as Token, frame.children, parent.children.length))
}

const TAGS: Record<string, string> = {
  paragraph_open: 'p',
  blockquote_open: 'blockquote',
  bullet_list_open: 'ul',
  thead_open: 'thead',
  tbody_open: 'tbody',
  tr_open: 'tr',
  em_open: 'em',
  strong_open: 'strong',
  s_open: 'del',
}

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'])

function element(token: Token, children: ReactNode[], key: number): ReactNode {
  switch (token.type) {
    case 'paragraph_open':
      // The paragraphs of a tight list item are shown without <p>.
      return token.hidden ? createElement(Fragment, { key }, children) : createElement('p', { key }, children)
    case 'heading_open':
      return createElement(HEADINGS.has(token.tag) ? token.tag : 'p', { key }, children)
    case 'ordered_list_open': {
      const start = Number(token.attrGet('start') ?? 1)
      return createElement('ol', { key, start: Number.isSafeInteger(start) && start !== 1 ? start : undefined }, children)
    }
    case 'list_item_open':
      return createElement('li', { key, className: stringAttr(token, 'class') }, children)
    case 'table_open':
      return (
        <div key={key} className="md-table">
          <table>{children}</table>
        </div>
      )
    case 'th_open':
    case 'td_open':
      return createElement(token.type === 'th_open' ? 'th' : 'td', { key, style: alignStyle(token) }, children)
    case 'link_open':
      return link(token, children, key)
    default: {
      const tag = TAGS[token.type]
      return tag === undefined ? createElement(Fragment, { key }, children) : createElement(tag, { key }, children)
    }
  }
}

function leaf(token: Token, key: number, options: RenderOptions): ReactNode {
  switch (token.type) {
    case 'inline':
      return createElement(Fragment, { key }, renderTokens(token.children ?? [], options))
    case 'softbreak':
      return options.breaks ? <br key={key} /> : '\n'
    case 'hardbreak':
      return <br key={key} />
    case 'code_inline':
      return <code key={key}>{token.content}</code>
    case 'fence':
    case 'code_block':
      return (
        <pre key={key} className="md-code" data-lang={language(token.info) || undefined}>
          <code>{token.content}</code>
        </pre>
      )
    case 'hr':
      return <hr key={key} />
    case 'task_checkbox':
      return <input key={key} type="checkbox" className="md-task" checked={token.meta?.checked === true} disabled readOnly />
    case 'image': // images are links (rules.ts); if one gets here, the same
      return link(token, [token.content || String(token.attrGet('src') ?? '')], key, 'src')
    default:
      // text, and anything unknown (html_inline, html_block…) shown as text.
      return token.content
  }
}

function link(token: Token, children: ReactNode[], key: number, attr = 'href'): ReactNode {
  const href = String(token.attrGet(attr) ?? '')
  // Only a written link [label](target) cites: not an autolink, a bare link or an image.
  const citation = attr === 'href' && token.markup === '' ? parseCitation(href) : null
  if (citation !== null) {
    // An in-app link: Markdown.tsx's click handler opens the message (links.ts).
    return (
      <a
        key={key}
        href={href}
        className="md-citation"
        data-testid="citation"
        data-conversation-id={citation.conversationId}
        data-message-id={citation.messageId}
        title="Open this message"
      >
        {children}
      </a>
    )
  }
  if (safeUrl(href) === null) return createElement(Fragment, { key }, children)
  return (
    <a key={key} href={href} title={stringAttr(token, 'title')} target="_blank" rel="noopener noreferrer">
      {children}
    </a>
  )
}

function stringAttr(token: Token, name: string): string | undefined {
  const value = token.attrGet(name)
  return value === null || value === '' ? undefined : String(value)
}

const ALIGN = /^text-align:(left|center|right)$/

function alignStyle(token: Token): { textAlign: 'left' | 'center' | 'right' } | undefined {
  const match = ALIGN.exec(String(token.attrGet('style') ?? ''))
  return match === null ? undefined : { textAlign: match[1] as 'left' | 'center' | 'right' }
}

/** The language of a fence's info string ("js" of "js title=x"), tidied up. */
function language(info: string): string {
  return (info.trim().split(/\s+/)[0] ?? '').replace(/[^\w+#.-]/g, '').slice(0, 32)
}
