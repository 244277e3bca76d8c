// Two markdown-it core rules that run after inline parsing:
// - imagesAsLinks: nothing is ever loaded from model output, so ![alt](url)
//   becomes a link to url whose text is the alt text (markdown-it has
//   already checked url with validateLink, as for any link);
// - taskLists: a list item starting with "[ ] " or "[x] " gets a disabled
//   checkbox (a "task_checkbox" token) and the class "task-list-item".

import type { StateCore, Token } from 'markdown-it'

export function imagesAsLinks(state: StateCore): void {
  for (const block of state.tokens) {
    if (block.type === 'inline' && block.children !== null && block.children.some((t) => t.type === 'image')) {
      block.children = replaceImages(state, block.children)
    }
  }
}

function replaceImages(state: StateCore, tokens: Token[]): Token[] {
  const out: Token[] = []
  let linkDepth = 0
  for (const token of tokens) {
    if (token.type === 'link_open') linkDepth++
    if (token.type === 'link_close') linkDepth--
    if (token.type !== 'image') {
      out.push(token)
      continue
    }
    const href = String(token.attrGet('src') ?? '')
    const label = new state.Token('text', '', 0)
    label.content = plainText(token.children ?? []) || href
    if (linkDepth > 0) {
      out.push(label) // an image inside a link: a link cannot hold another one
      continue
    }
    const open = new state.Token('link_open', 'a', 1)
    open.attrs = [['href', href]]
    const title = token.attrGet('title')
    if (title !== null && title !== '') open.attrs.push(['title', String(title)])
    open.markup = 'image'
    label.level = token.level + 1
    open.level = token.level
    const close = new state.Token('link_close', 'a', -1)
    close.level = token.level
    close.markup = 'image'
    out.push(open, label, close)
  }
  return out
}

/** The text of inline tokens without their markup, as an image's alt text. */
function plainText(tokens: readonly Token[]): string {
  let text = ''
  for (const t of tokens) {
    if (t.type === 'image') text += plainText(t.children ?? [])
    else if (t.type === 'softbreak' || t.type === 'hardbreak') text += '\n'
    else if (t.nesting === 0) text += t.content
  }
  return text
}

const TASK = /^\[([ xX])\][ \t]/

export function taskLists(state: StateCore): void {
  const tokens = state.tokens
  for (let i = 2; i < tokens.length; i++) {
    const inline = tokens[i] as Token
    if (inline.type !== 'inline' || tokens[i - 1]?.type !== 'paragraph_open') continue
    const item = tokens[i - 2] as Token
    if (item.type !== 'list_item_open') continue
    const first = inline.children?.[0]
    const match = TASK.exec(inline.content)
    // The text token must start with the marker too: "\[ ]" or a "[x]" reference link is not a task.
    if (match === null || first === undefined || first.type !== 'text' || !TASK.test(first.content)) continue
    first.content = first.content.slice(3)
    const box = new state.Token('task_checkbox', 'input', 0)
    box.attrs = [['type', 'checkbox'], ['disabled', '']]
    if (match[1] !== ' ') box.attrs.push(['checked', ''])
    box.meta = { checked: match[1] !== ' ' }
    box.level = first.level
    inline.children?.unshift(box)
    item.attrJoin('class', 'task-list-item')
  }
}
