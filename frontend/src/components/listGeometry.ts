// Where each row of the windowed message list sits, in pixels from the top of
// its first row, without every row being in the DOM: the rows drawn are
// measured (a row's height runs from its top to the next row's top, so it
// includes the gap and any approval cards after its bubble), the others count
// as the average of the measured ones. The list (useMessageWindow.ts) draws a
// range of rows between two spacers of the heights this gives, and keeps the
// row the user reads at the same place on screen when anything above it
// changes (an anchor). Pure, so it is tested without a browser.

/** The height of a row before any is measured. */
export const DEFAULT_ROW_PX = 140

/** A range of rows: start included, end excluded. */
export interface Range {
  start: number
  end: number
}

/** The row the user reads: its key, and how far the viewport's top is below the row's top. */
export interface Anchor {
  key: string
  delta: number
}

export class ListGeometry {
  private keyList: readonly string[] = []
  private readonly index = new Map<string, number>()
  private readonly heights = new Map<string, number>()
  private tops: number[] = [0]
  private stale = true

  /** The rows, in order (heights of rows no longer there are forgotten). */
  setKeys(keys: readonly string[]): void {
    if (keys === this.keyList) return
    this.keyList = keys
    this.index.clear()
    keys.forEach((k, i) => this.index.set(k, i))
    for (const k of this.heights.keys()) if (!this.index.has(k)) this.heights.delete(k)
    this.stale = true
  }

  get length(): number {
    return this.keyList.length
  }

  keyAt(i: number): string | undefined {
    return this.keyList[i]
  }

  indexOf(key: string): number {
    return this.index.get(key) ?? -1
  }

  /** Records a row's measured height; true when it changed. */
  measure(key: string, height: number): boolean {
    if (!this.index.has(key) || !Number.isFinite(height) || height < 0) return false
    const old = this.heights.get(key)
    if (old !== undefined && Math.abs(old - height) < 0.5) return false
    this.heights.set(key, height)
    this.stale = true
    return true
  }

  /** Whether the row has been measured. */
  measured(key: string): boolean {
    return this.heights.has(key)
  }

  /** The height a row not measured yet counts as. */
  estimate(): number {
    if (this.heights.size === 0) return DEFAULT_ROW_PX
    let sum = 0
    for (const h of this.heights.values()) sum += h
    return sum / this.heights.size
  }

  /** The top of row i (i = length: the bottom of the last row). */
  top(i: number): number {
    this.refresh()
    return this.tops[Math.max(0, Math.min(i, this.keyList.length))] ?? 0
  }

  /** The height of all the rows. */
  total(): number {
    return this.top(this.keyList.length)
  }

  /** The row at y (the first whose bottom is below y), clamped to the rows. */
  indexAt(y: number): number {
    this.refresh()
    const n = this.keyList.length
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((this.tops[mid + 1] ?? 0) > y) hi = mid
      else lo = mid + 1
    }
    return Math.max(0, lo)
  }

  /** The rows that meet [from, to), at most max of them (those nearest from). */
  rangeOver(from: number, to: number, max: number): Range {
    const n = this.keyList.length
    if (n === 0) return { start: 0, end: 0 }
    const start = this.indexAt(from)
    let end = start + 1
    while (end < n && end - start < max && this.top(end) < to) end++
    return { start, end }
  }

  /** The last rows, filling height, at most max of them. */
  rangeFromEnd(height: number, max: number): Range {
    const n = this.keyList.length
    let start = n
    while (start > 0 && n - start < max && this.total() - this.top(start) < height) start--
    return { start, end: n }
  }

  /** Where the viewport's top goes for anchor to stay put (null: its row is gone). */
  topFor(anchor: Anchor): number | null {
    const i = this.indexOf(anchor.key)
    return i < 0 ? null : this.top(i) + anchor.delta
  }

  /** The anchor of a viewport whose top is at y. */
  anchorAt(y: number): Anchor | null {
    const key = this.keyList[this.indexAt(y)]
    return key === undefined ? null : { key, delta: y - this.top(this.indexOf(key)) }
  }

  private refresh(): void {
    if (!this.stale) return
    const guess = this.estimate()
    const tops = new Array<number>(this.keyList.length + 1)
    tops[0] = 0
    this.keyList.forEach((k, i) => {
      tops[i + 1] = (tops[i] ?? 0) + (this.heights.get(k) ?? guess)
    })
    this.tops = tops
    this.stale = false
  }
}
