// The windowed message list: only the rows near the viewport are in the DOM,
// between two spacers that stand for the others (listGeometry.ts gives their
// heights). After every commit, and whenever the content changes size, the
// rows drawn are measured, the spacers set, and the scroll put back so the row
// the user reads stays where it was (or at the bottom while following, through
// useFollowBottom); the range drawn moves as the user scrolls, and near either
// end of the loaded messages the next page is asked for (onPage). A row is
// one message: its bubble (the list's children with data-testid="message",
// in order) and what follows it up to the next bubble (approval cards).

import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react'
import { flushSync } from 'react-dom'
import type { PageSide } from '../state/messageWindow'
import { ListGeometry, type Anchor, type Range } from './listGeometry'
import { useFollowBottom } from './useFollowBottom'

/** Rows drawn at most, whatever their heights. */
export const MAX_ROWS = 80
/** Rows drawn before the viewport's height is known (and where nothing is laid out: tests without a browser). */
export const FIRST_ROWS = 24
/** A page is asked for when the viewport comes within this many rows of the loaded end. */
const PREFETCH_ROWS = 30

interface Options {
  /** One key per message, in order. */
  keys: readonly string[]
  hasOlder: boolean
  hasNewer: boolean
  /** Bumped when the loaded messages are replaced: the list keeps its row if it is still there, else goes to the bottom. */
  windowSeq: number
  /** A message is about to be revealed: a replaced window does not go to the bottom. */
  holdPlace: boolean
  onPage(side: PageSide): void
}

export interface MessageWindow {
  /** The rows to draw. */
  range: Range
  scroller: RefObject<HTMLDivElement | null>
  content: RefObject<HTMLDivElement | null>
  list: RefObject<HTMLOListElement | null>
  topSpacer: RefObject<HTMLLIElement | null>
  bottomSpacer: RefObject<HTMLLIElement | null>
  onScroll(): void
  onWheel(event: { deltaY: number }): void
  /** Brings a message's row to the middle, then calls shown with its bubble. */
  reveal(key: string, shown: (row: HTMLElement) => void): void
  /** Follows the bottom again (another conversation opened). */
  stick(): void
}

/** The range kept in state, by keys (rows come and go at both ends); toEnd: through the last row. */
interface RangeKeys {
  first: string
  last: string
  toEnd: boolean
}

type CenteredAnchor = Anchor & { center?: boolean }

export function useMessageWindow({ keys, hasOlder, hasNewer, windowSeq, holdPlace, onPage }: Options): MessageWindow {
  const geo = useRef(new ListGeometry()).current
  geo.setKeys(keys)
  const ends = useRef({ hasOlder, hasNewer, onPage })
  ends.current = { hasOlder, hasNewer, onPage }

  const list = useRef<HTMLOListElement>(null)
  const topSpacer = useRef<HTMLLIElement>(null)
  const bottomSpacer = useRef<HTMLLIElement>(null)
  const anchor = useRef<CenteredAnchor | null>(null)
  // The rows next to the anchor, nearest first: when the window is replaced without the
  // anchor's row (another version of it shown), one of them keeps the place.
  const spares = useRef<Anchor[]>([])
  const pending = useRef<{ key: string; shown: (row: HTMLElement) => void } | null>(null)
  // Where row 0's top is in the scroller's content (null until laid out), and the spacers' heights now.
  const origin = useRef<number | null>(null)
  const pads = useRef({ top: -1, bottom: -1 })
  const padElements = useRef<{ top: HTMLElement | null; bottom: HTMLElement | null }>({ top: null, bottom: null })

  const [rangeKeys, setRangeKeys] = useState<RangeKeys | null>(null)
  const kept = useRef(rangeKeys)
  kept.current = rangeKeys
  // The viewport's height when last seen: the rows drawn first fill twice it (as many as the bottom range will want).
  const seenHeight = useRef(0)
  const firstRows = seenHeight.current > 0 ? Math.min(MAX_ROWS, Math.ceil((2 * seenHeight.current) / geo.estimate()) + 2) : FIRST_ROWS
  const range = resolveRange(geo, rangeKeys, anchor.current, firstRows)
  const rendered = useRef(range)
  rendered.current = range

  const syncRef = useRef<() => void>(() => undefined)
  const follow = useFollowBottom({ onResize: () => syncRef.current(), canStick: () => !ends.current.hasNewer })

  const setRange = useCallback(
    (r: Range, toEnd: boolean, inEffect: boolean) => {
      const first = geo.keyAt(r.start)
      const last = geo.keyAt(r.end - 1)
      if (first === undefined || last === undefined) return
      const next = { first, last, toEnd }
      const now = kept.current
      if (now !== null && now.first === first && now.last === last && now.toEnd === toEnd) return
      kept.current = next
      if (inEffect) setRangeKeys(next)
      else flushSync(() => setRangeKeys(next))
    },
    [geo],
  )

  /** Moves the range drawn when the viewport nears its edge, and asks for pages near the loaded ends. */
  const check = useCallback(
    (inEffect: boolean) => {
      const el = follow.scroller.current
      const o = origin.current
      if (el === null || o === null || geo.length === 0) return
      const vh = el.clientHeight
      if (!(vh > 0)) return
      seenHeight.current = vh
      const y = el.scrollTop - o
      const cur = rendered.current
      const sticking = follow.isSticking()
      if (sticking) {
        const want = geo.rangeFromEnd(2 * vh, MAX_ROWS)
        if (want.start < cur.start || want.start > cur.start + 10 || cur.end !== geo.length) setRange(want, true, inEffect)
      } else {
        const must = geo.rangeOver(y - vh / 2, y + 1.5 * vh, MAX_ROWS)
        if (must.start < cur.start || must.end > cur.end || cur.end - cur.start > MAX_ROWS) {
          let next = geo.rangeOver(y - 1.5 * vh, y + 2.5 * vh, MAX_ROWS)
          if (next.end < must.end) next = { start: Math.max(0, must.end - MAX_ROWS), end: must.end }
          setRange(next, false, inEffect)
        }
      }
      const { hasOlder: older, hasNewer: newer, onPage: page } = ends.current
      if (older && y < geo.top(PREFETCH_ROWS)) page('older')
      if (newer && y + vh > geo.top(geo.length - PREFETCH_ROWS)) page('newer')
    },
    [follow, geo, setRange],
  )

  /** Measures the rows drawn, sets the spacers, and puts the scroll where the reader was. */
  const sync = useCallback(
    (inEffect: boolean) => {
      const el = follow.scroller.current
      const ol = list.current
      const top = topSpacer.current
      const bottom = bottomSpacer.current
      if (el === null || ol === null || top === null || bottom === null) return
      // A list drawn anew (after "Loading…") has spacers of no height yet.
      if (padElements.current.top !== top || padElements.current.bottom !== bottom) {
        padElements.current = { top, bottom }
        pads.current = { top: -1, bottom: -1 }
      }
      const r = rendered.current
      const rows = bubbles(ol)
      if (rows.length > 0 && rows.length === r.end - r.start && typeof rows[0]?.offsetTop === 'number') {
        const tops = rows.map((row) => row.offsetTop)
        const end = bottom.offsetTop
        tops.forEach((t, k) => {
          const key = geo.keyAt(r.start + k)
          if (key !== undefined) geo.measure(key, (tops[k + 1] ?? end) - t)
        })
        origin.current = (tops[0] ?? 0) - Math.max(0, pads.current.top)
      }
      const topPad = geo.top(r.start)
      const bottomPad = geo.total() - geo.top(r.end)
      if (topPad !== pads.current.top) top.style.height = `${topPad}px`
      if (bottomPad !== pads.current.bottom) bottom.style.height = `${bottomPad}px`
      pads.current = { top: topPad, bottom: bottomPad }
      const o = origin.current
      const a = anchor.current
      // (Our own changes may have moved the scroll: following goes to the bottom whatever the scroll says.)
      if (follow.isSticking()) follow.scrollTo(el.scrollHeight)
      else if (a !== null && o !== null) {
        if (a.center === true) {
          const i = geo.indexOf(a.key)
          a.delta = -(el.clientHeight - (geo.top(i + 1) - geo.top(i))) / 2
        }
        const t = geo.topFor(a)
        if (t !== null) follow.scrollTo(o + t)
      }
      const want = pending.current
      if (want !== null) {
        const row = rows[geo.indexOf(want.key) - r.start]
        if (row !== undefined) {
          pending.current = null
          want.shown(row)
        }
      }
      check(inEffect)
    },
    [follow, geo, check],
  )
  syncRef.current = () => sync(false)

  // The loaded messages were replaced: keep the row read if it is still there, else go to the bottom.
  const { stick: followStick } = follow
  const stick = useCallback(() => {
    anchor.current = null
    spares.current = []
    followStick()
    setRangeKeys(null)
  }, [followStick])
  const hold = useRef(holdPlace)
  hold.current = holdPlace
  useLayoutEffect(() => {
    const a = anchor.current
    if (hold.current || follow.isSticking() || a === null) {
      if (!hold.current) stick()
      return
    }
    if (geo.indexOf(a.key) >= 0) return
    const spare = spares.current.find((s) => geo.indexOf(s.key) >= 0)
    if (spare === undefined) stick()
    else anchor.current = spare
  }, [windowSeq, geo, follow, stick])

  useLayoutEffect(() => sync(true))

  const onScroll = useCallback(() => {
    follow.onScroll()
    const el = follow.scroller.current
    const o = origin.current
    if (el === null || o === null) return
    // The user scrolled: the row now at the top is the one to keep in place.
    if (!follow.isSticking()) {
      const y = el.scrollTop - o
      anchor.current = geo.anchorAt(y)
      spares.current = sparesAround(geo, y)
    }
    check(false)
  }, [follow, geo, check])

  const reveal = useCallback(
    (key: string, shown: (row: HTMLElement) => void) => {
      const i = geo.indexOf(key)
      if (i < 0) return
      follow.release()
      anchor.current = { key, delta: 0, center: true }
      spares.current = []
      pending.current = { key, shown }
      const cur = rendered.current
      if (i >= cur.start && i < cur.end) {
        sync(true)
        return
      }
      setRange({ start: Math.max(0, i - 10), end: Math.min(geo.length, i + 11) }, false, true)
    },
    [follow, geo, sync, setRange],
  )

  return {
    range,
    scroller: follow.scroller,
    content: follow.content,
    list,
    topSpacer,
    bottomSpacer,
    onScroll,
    onWheel: follow.onWheel,
    reveal,
    stick,
  }
}

/** The rows to draw now: the range kept, else around the anchor, else the last ones. */
function resolveRange(geo: ListGeometry, keys: RangeKeys | null, anchor: Anchor | null, firstRows: number): Range {
  const n = geo.length
  if (keys !== null) {
    const start = geo.indexOf(keys.first)
    const last = keys.toEnd ? n - 1 : geo.indexOf(keys.last)
    if (start >= 0 && last >= start) return { start, end: last + 1 }
  }
  const a = anchor === null ? -1 : geo.indexOf(anchor.key)
  if (a >= 0) return { start: Math.max(0, a - 10), end: Math.min(n, a + 11) }
  return { start: Math.max(0, n - firstRows), end: n }
}

/** Anchors on the rows around the one at y, nearest first (those before it first of each pair). */
function sparesAround(geo: ListGeometry, y: number): Anchor[] {
  const at = geo.indexAt(y)
  const out: Anchor[] = []
  for (let d = 1; d <= 8; d++) {
    for (const i of [at - d, at + d]) {
      const key = geo.keyAt(i)
      if (i >= 0 && key !== undefined) out.push({ key, delta: y - geo.top(i) })
    }
  }
  return out
}

/** The list's message bubbles, in order. */
function bubbles(ol: HTMLElement): HTMLElement[] {
  const out: HTMLElement[] = []
  for (const node of ol.childNodes) {
    if (node.nodeType === 1 && (node as HTMLElement).getAttribute('data-testid') === 'message') out.push(node as HTMLElement)
  }
  return out
}
