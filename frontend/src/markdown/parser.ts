// The markdown-it configuration for model output: CommonMark with GFM tables,
// strikethrough and task lists, bare links, and nothing that could run or
// load anything. Raw HTML stays text (html: false), every link target must
// pass safeUrl (http, https, mailto), and images become links (rules.ts).
// This package owns parsing; it must not import components or state.

import MarkdownItParser, { type MarkdownIt } from 'markdown-it'
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

export function createParser({ breaks = true, linkify = true }: ParserOptions = {}): MarkdownIt {
  const md = new MarkdownItParser('default', { html: false, breaks, linkify, typographer: false })
  // Links, autolinks, images and bare links all go through this check.
  md.validateLink = (url) => safeUrl(url) !== null
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
  md.core.ruler.after('inline', 'images_as_links', imagesAsLinks)
  md.core.ruler.after('images_as_links', 'task_lists', taskLists)
  return md
}

/** The parser chat replies are rendered with. */
export const chatParser = createParser()
