import { useCallback, useEffect, useRef, type RefObject } from 'react'

/** Pixels from the bottom within which the list keeps following new content. */
const STICK_PX = 48

interface Follow {
  /** The scrolling element. */
  scroller: RefObject<HTMLDivElement | null>
  /** The element inside it whose growth is followed. */
  content: RefObject<HTMLDivElement | null>
  /** The scroller's scroll handler: scrolling up stops following, back to the bottom resumes. */
  onScroll(): void
  /** Follow again (a new conversation opened). */
  stick(): void
}

/**
 * Keeps the bottom of a scroller in view while its content grows, unless the
 * user has scrolled up. Growth is seen by a ResizeObserver, whose callback
 * runs after the browser's own layout of the frame: following a streaming
 * reply never forces a layout of its own (reading scrollHeight in a render
 * effect would, once per token frame), and it covers every way the content
 * grows (a token, a tool card, an image of a card loading, a narrower window).
 */
export function useFollowBottom(): Follow {
  const scroller = useRef<HTMLDivElement>(null)
  const content = useRef<HTMLDivElement>(null)
  const sticking = useRef(true)

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (el !== null && sticking.current) el.scrollTop = el.scrollHeight
  }, [])

  useEffect(() => {
    const el = scroller.current
    const inner = content.current
    if (el === null || inner === null || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(toBottom)
    observer.observe(inner)
    observer.observe(el)
    return () => observer.disconnect()
  }, [toBottom])

  const onScroll = useCallback(() => {
    const el = scroller.current
    if (el !== null) sticking.current = el.scrollHeight - el.scrollTop - el.clientHeight < STICK_PX
  }, [])

  const stick = useCallback(() => {
    sticking.current = true
    toBottom()
  }, [toBottom])

  return { scroller, content, onScroll, stick }
}
