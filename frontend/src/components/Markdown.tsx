// Renders untrusted markdown (a model's reply) as React elements, with
// markdown-it and no dangerouslySetInnerHTML anywhere (markdown/render.tsx).
// A streamed reply grows a few characters at a time: each instance keeps its
// last parse and parses again only the last block (markdown/blocks.ts), and
// each block is a memoised component, so the blocks above do not re-render.
// A text that grows by more than a step at once (a resume, a backlog, a live
// reply that mounts long) is shown a step per animation frame, sized by how
// fast the parser runs (markdown/reveal.ts); while it catches up the element
// says data-revealing.
// A click on a link goes through markdown/links.ts: in the desktop window it
// opens in the system browser; a citation of a message (markdown/citation.ts)
// opens that message here (WispPage.openMessage).

import './Markdown.css'
import { memo, startTransition, useCallback, useContext, useEffect, useRef, useState, type MouseEvent } from 'react'
import { desktopSystem } from '../api/system'
import { updateText, type MdBlock, type ParsedText } from '../markdown/blocks'
import type { Citation } from '../markdown/citation'
import { chatParser } from '../markdown/parser'
import { handleLinkClick } from '../markdown/links'
import { renderTokens } from '../markdown/render'
import { FIRST_STEP, RevealPace, revealEnd } from '../markdown/reveal'
import { WispContext } from '../state/wispContext'
import type { WispPage } from '../state/wispPage'

const RENDER_OPTIONS = { breaks: chatParser.options.breaks }

/** What is on screen: the parse of the part shown, for which text and frame. */
interface View {
  parsed: ParsedText
  text: string
  frame: number
}

interface Props {
  text: string
  /**
   * The text is a reply streamed in this page: when it mounts already long (a
   * reply whose frames arrived together, even to its end), it is revealed a
   * step per frame from its first step too. A saved message mounts whole.
   */
  live?: boolean
}

export const Markdown = memo(function Markdown({ text, live = false }: Props) {
  // One reveal step per new text and per animation frame asked for, not per
  // render: the step's own state update renders again at once.
  const [frame, setFrame] = useState(0)
  const [view, setView] = useState<View>(() => ({ parsed: updateText(chatParser, null, live ? firstPart(text) : text), text, frame }))
  const pace = useRef<RevealPace | null>(null)
  let current = view.parsed
  if (view.text !== text || view.frame !== frame) {
    if (current.source !== text) {
      pace.current ??= new RevealPace()
      const started = performance.now()
      current = updateText(chatParser, current, shownPart(text, current.source, pace.current.step))
      pace.current.measured(current.stats.parsedChars, performance.now() - started)
    }
    setView({ parsed: current, text, frame })
  }
  const revealing = current.source.length < text.length
  useEffect(() => {
    if (!revealing) return
    // The next step renders as a transition: in its own task, after this frame is drawn.
    const id = requestAnimationFrame(() => startTransition(() => setFrame((n) => n + 1)))
    return () => cancelAnimationFrame(id)
  }, [revealing, current])
  // A citation opens its message in this page (outside a page, in tests: nothing).
  const page = useContext(WispContext)
  const onLinkClick = useCallback((e: MouseEvent<HTMLDivElement>) => linkClicked(e, page), [page])
  return (
    <div className="md" data-revealing={revealing ? 'true' : undefined} onClick={onLinkClick}>
      {current.blocks.map((block, i) => (
        <MarkdownBlock key={i} block={block} />
      ))}
    </div>
  )
})

/** A click in rendered markdown: links open outside the app, citations in it (markdown/links.ts). */
function linkClicked(e: MouseEvent<HTMLDivElement>, page: WispPage | null): void {
  const link = e.target instanceof Element ? e.target.closest('a') : null
  const openCitation = page === null ? undefined : (c: Citation) => void page.openMessage(c.conversationId, c.messageId)
  handleLinkClick({ href: link?.getAttribute('href') ?? null, preventDefault: () => e.preventDefault() }, desktopSystem()?.openURL, openCitation)
}

/**
 * The part of a live text shown when it mounts: up to the last paragraph break
 * within the first reveal step, or all of it when it is short or has no break
 * there. (One long block is shown whole: revealing it would parse and lay the
 * whole block out again at every step.)
 */
function firstPart(text: string): string {
  if (text.length <= FIRST_STEP) return text
  const cut = text.lastIndexOf('\n\n', FIRST_STEP)
  return cut <= 0 ? text : text.slice(0, cut + 2)
}

/**
 * What to show of text when `shown` is on screen: when text extends it, up to
 * a step more; otherwise (an edit, a replaced segment) all of it.
 */
function shownPart(text: string, shown: string, step: number): string {
  if (text.length <= shown.length || text.slice(0, shown.length) !== shown) return text
  const end = revealEnd(text, shown.length, step)
  return end === text.length ? text : text.slice(0, end)
}

/** One top-level block; the object only changes when the block was parsed again and came out different. */
const MarkdownBlock = memo(function MarkdownBlock({ block }: { block: MdBlock }) {
  return renderTokens(block.tokens, RENDER_OPTIONS)
})
