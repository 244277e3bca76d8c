// Renders untrusted markdown (a model's reply) as React elements, with
// markdown-it and no dangerouslySetInnerHTML anywhere (markdown/render.tsx).
// A streamed reply grows a few characters at a time: each instance keeps its
// last parse and parses again only the last block (markdown/blocks.ts), and
// each block is a memoised component, so the blocks above do not re-render.

import { memo, useState } from 'react'
import { updateText, type MdBlock, type ParsedText } from '../markdown/blocks'
import { chatParser } from '../markdown/parser'
import { renderTokens } from '../markdown/render'

const RENDER_OPTIONS = { breaks: chatParser.options.breaks }

export const Markdown = memo(function Markdown({ text }: { text: string }) {
  const [parsed, setParsed] = useState<ParsedText>(() => updateText(chatParser, null, text))
  let current = parsed
  if (parsed.source !== text) {
    // The text changed: parse from the previous result (React renders again at once with it).
    current = updateText(chatParser, parsed, text)
    setParsed(current)
  }
  return (
    <div className="md">
      {current.blocks.map((block, i) => (
        <MarkdownBlock key={i} block={block} />
      ))}
    </div>
  )
})

/** One top-level block; the object only changes when the block was parsed again and came out different. */
const MarkdownBlock = memo(function MarkdownBlock({ block }: { block: MdBlock }) {
  return renderTokens(block.tokens, RENDER_OPTIONS)
})
