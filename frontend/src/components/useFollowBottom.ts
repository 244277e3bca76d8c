import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react'

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
  /** Stop following (a message is brought into view). */
  release(): void
  /** Whether the list follows the bottom now. */
  isSticking(): boolean
  /** Scrolls to top (the list keeping its place), as a scroll of ours, not the user's. */
  scrollTo(top: number): void
  /** To the bottom, when following. */
  toBottom(): void
}

interface FollowOptions {
  /** Called when the content or the scroller changed size, before following (the list measures its rows). */
  onResize?(): void
  /** Whether reaching the bottom may follow again (not while newer messages are not loaded). */
  canStick?(): boolean
}

/**
 * Keeps the bottom of a scroller in view while its content grows, unless the
 * user has scrolled up. Growth is seen by a ResizeObserver, whose callback
 * runs after the browser's own layout of the frame: following a streaming
 * reply never forces a layout of its own (reading scrollHeight in a render
 * effect would, once per token frame), and it covers every way the content
 * grows (a token, a tool card, an image of a card loading, a narrower window).
 */
export function useFollowBottom(options: FollowOptions = {}): Follow {
  const opts = useRef(options)
  opts.current = options
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
    const observer = new ResizeObserver(() => {
      opts.current.onResize?.()
      toBottom()
    })
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
    const nearBottom = el.scrollHeight - top - el.clientHeight < STICK_PX && (opts.current.canStick?.() ?? true)
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

  const release = useCallback(() => {
    sticking.current = false
  }, [])

  const isSticking = useCallback(() => sticking.current, [])

  const scrollTo = useCallback((top: number) => {
    const el = scroller.current
    if (el === null || !Number.isFinite(top)) return
    if (Math.abs(el.scrollTop - top) >= 1) el.scrollTop = top
    lastTop.current = el.scrollTop
  }, [])

  return useMemo(
    () => ({ scroller, content, onScroll, onWheel, stick, release, isSticking, scrollTo, toBottom }),
    [onScroll, onWheel, stick, release, isSticking, scrollTo, toBottom],
  )
}
