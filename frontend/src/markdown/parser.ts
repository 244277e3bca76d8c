// The markdown-it configuration for model output: CommonMark with GFM tables,
// strikethrough and task lists, bare links, and nothing that could run or
// load anything. Raw HTML stays text (html: false), every link target must
// pass safeUrl (http, https, mailto) or be a citation of a message
// (citation.ts), and images become links (rules.ts).
// This package owns parsing; it must not import components or state.

import MarkdownItParser, { type MarkdownIt } from 'markdown-it'
import { parseCitation } from './citation'
import { imagesAsLinks, taskLists } from './rules'
import { safeUrl } from './safeUrl'

export interface ParserOptions {
  /** Every newline inside a paragraph is a line break: chat text is written line by line. Default true. */
  breaks?: boolean
  /** Bare http(s)://, www. and e-mail addresses become links. Default true. */
  linkify?: boolean
}

/** How far linkify looks after "www." for the rest of an address. */
const MAX_LINK_LENGTH = 2048

/**
 * The longest paragraph (or heading, or table cell) whose inline markup is parsed; a
 * longer one is shown as its plain text. Inline parsing is the one step whose cost
 * grows with a block's delimiters (32k of them in 128 KB of "**a "), and a reply with
 * tens of kilobytes in one paragraph is runaway or hostile output, not prose: showing
 * it as text keeps every render step short.
 */
export const MAX_INLINE = 32 << 10

export function createParser({ breaks = true, linkify = true }: ParserOptions = {}): MarkdownIt {
  const md = new MarkdownItParser('default', { html: false, breaks, linkify, typographer: false })
  // Links, autolinks, images and bare links all go through this check; a
  // citation (wisp://message/<c>/<m>) is the one in-app target (citation.ts).
  md.validateLink = (url) => safeUrl(url) !== null || parseCitation(url) !== null
  // linkify-it links http(s):// and e-mail addresses; "www.example.com" too, as before.
  md.linkify.add('www.', {
    validate(text, pos, self) {
      const n = self.testSchemaAt(`//www.${text.slice(pos, pos + MAX_LINK_LENGTH)}`, 'http:', 0)
      return n > '//www.'.length ? n - '//www.'.length : 0
    },
    normalize(match) {
      match.url = `http://${match.url}`
    },
  })
  md.core.ruler.at('inline', (state) => {
    for (const token of state.tokens) {
      if (token.type !== 'inline') continue
      if (token.content.length > MAX_INLINE) {
        // Not "text": later rules (linkify) leave it alone; the renderer shows it as text.
        const text = new state.Token('plain_text', '', 0)
        text.content = token.content
        token.children = [text]
      } else {
        state.md.inline.parse(token.content, state.md, state.env, token.children ?? (token.children = []))
      }
    }
  })
  md.core.ruler.after('inline', 'images_as_links', imagesAsLinks)
  md.core.ruler.after('images_as_links', 'task_lists', taskLists)
  return md
}

/** The parser chat replies are rendered with. */
export const chatParser = createParser()
