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
  /** The scroller's wheel handler: a turn of the wheel upwards stops following at once. */
  onWheel(event: { deltaY: number }): void
  /** Follow again (a new conversation opened). */
  stick(): void
  /** Stop following and scroll a row of the content to the middle (a search result chosen). */
  reveal(row: HTMLElement): void
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
  // Where the list was last scrolled to, by us or the user.
  const lastTop = useRef(0)

  const toBottom = useCallback(() => {
    const el = scroller.current
    if (el === null || !sticking.current) return
    // The user moved up since our last scroll, and its scroll event has not come
    // yet (a busy page): that move wins over following.
    if (el.scrollTop < lastTop.current - 1 && el.scrollHeight - el.scrollTop - el.clientHeight >= STICK_PX) {
      sticking.current = false
      lastTop.current = el.scrollTop
      return
    }
    el.scrollTop = el.scrollHeight
    lastTop.current = el.scrollTop
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

  // Only the user scrolling up stops the following: the content may have grown
  // between our scroll and its event, which then finds the bottom out of reach
  // without anyone having moved away from it.
  const onScroll = useCallback(() => {
    const el = scroller.current
    if (el === null) return
    const top = el.scrollTop
    const nearBottom = el.scrollHeight - top - el.clientHeight < STICK_PX
    if (top < lastTop.current - 1) sticking.current = nearBottom
    else if (nearBottom) sticking.current = true
    lastTop.current = top
  }, [])

  // The wheel says what the user wants before the scroll it makes reaches the page:
  // on a busy page the content can grow in between, and following would put the list
  // back at the bottom under the user's hand.
  const onWheel = useCallback((event: { deltaY: number }) => {
    const el = scroller.current
    if (el !== null && event.deltaY < 0 && el.scrollTop > 0) sticking.current = false
  }, [])

  const stick = useCallback(() => {
    sticking.current = true
    toBottom()
  }, [toBottom])

  const reveal = useCallback((row: HTMLElement) => {
    const el = scroller.current
    if (el === null) return
    sticking.current = false
    row.scrollIntoView({ block: 'center' })
    lastTop.current = el.scrollTop
  }, [])

  return { scroller, content, onScroll, onWheel, stick, reveal }
}
