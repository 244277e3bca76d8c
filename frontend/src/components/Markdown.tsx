// Renders untrusted markdown as React elements. There is no
// dangerouslySetInnerHTML anywhere: text is text, links were checked by
// the parser (http, https, mailto) and open in a new window without an opener.

import { createElement, Fragment, memo, useMemo, type ReactNode } from 'react'
import type { Block, Inline } from '../markdown/ast'
import { parseMarkdown } from '../markdown/parse'

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const blocks = useMemo(() => parseMarkdown(text), [text])
  return <div className="md">{renderBlocks(blocks)}</div>
})

export function renderBlocks(blocks: readonly Block[]): ReactNode[] {
  return blocks.map(renderBlock)
}

function renderBlock(block: Block, key: number): ReactNode {
  switch (block.type) {
    case 'paragraph':
      return <p key={key}>{renderInlines(block.children)}</p>
    case 'heading':
      return createElement(`h${block.level}`, { key }, renderInlines(block.children))
    case 'code':
      return (
        <pre key={key} className="md-code" data-lang={block.lang || undefined}>
          <code>{block.text}</code>
        </pre>
      )
    case 'quote':
      return <blockquote key={key}>{renderBlocks(block.children)}</blockquote>
    case 'list': {
      const items = block.items.map((item, i) => <li key={i}>{renderItem(item)}</li>)
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      )
    }
    case 'table':
      return (
        <div key={key} className="md-table">
          <table>
            <thead>
              <tr>
                {block.header.map((cell, i) => (
                  <th key={i} style={alignStyle(block.align[i])}>
                    {renderInlines(cell)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {block.rows.map((row, r) => (
                <tr key={r}>
                  {row.map((cell, i) => (
                    <td key={i} style={alignStyle(block.align[i])}>
                      {renderInlines(cell)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )
    case 'hr':
      return <hr key={key} />
  }
}

/** A tight list item: its leading paragraph is shown without <p>. */
function renderItem(blocks: Block[]): ReactNode {
  const [first, ...rest] = blocks
  if (first?.type !== 'paragraph') return renderBlocks(blocks)
  return [<Fragment key="lead">{renderInlines(first.children)}</Fragment>, ...rest.map((b, i) => renderBlock(b, i + 1))]
}

function alignStyle(align: string | null | undefined) {
  return align ? { textAlign: align as 'left' | 'center' | 'right' } : undefined
}

export function renderInlines(nodes: readonly Inline[]): ReactNode[] {
  return nodes.map(renderInline)
}

function renderInline(node: Inline, key: number): ReactNode {
  switch (node.type) {
    case 'text':
      return node.text
    case 'br':
      return <br key={key} />
    case 'code':
      return <code key={key}>{node.text}</code>
    case 'strong':
      return <strong key={key}>{renderInlines(node.children)}</strong>
    case 'em':
      return <em key={key}>{renderInlines(node.children)}</em>
    case 'del':
      return <del key={key}>{renderInlines(node.children)}</del>
    case 'link':
      return (
        <a key={key} href={node.href} title={node.title} target="_blank" rel="noopener noreferrer">
          {renderInlines(node.children)}
        </a>
      )
  }
}
