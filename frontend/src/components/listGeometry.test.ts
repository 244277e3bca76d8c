// The windowed list's geometry: rows not measured count as the average of the
// measured ones, ranges cover a stretch of pixels, and an anchor keeps the row
// read in place when rows come or change above it.

import { describe, expect, it } from 'vitest'
import { DEFAULT_ROW_PX, ListGeometry } from './listGeometry'

const keys = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `k${from + i}`)

describe('ListGeometry', () => {
  it('places rows not measured at the average of the measured ones', () => {
    const g = new ListGeometry()
    g.setKeys(keys(0, 10))
    expect(g.total()).toBe(10 * DEFAULT_ROW_PX)
    g.measure('k0', 100)
    g.measure('k1', 200)
    expect(g.top(1)).toBe(100)
    expect(g.top(2)).toBe(300)
    // Eight rows at 150 each after the two measured.
    expect(g.total()).toBe(300 + 8 * 150)
    expect(g.measure('k1', 200.2)).toBe(false)
    expect(g.measure('nope', 50)).toBe(false)
  })

  it('finds the row at a height and the rows over a stretch, at most max of them', () => {
    const g = new ListGeometry()
    g.setKeys(keys(0, 100))
    for (let i = 0; i < 100; i++) g.measure(`k${i}`, 50)
    expect(g.indexAt(-10)).toBe(0)
    expect(g.indexAt(49)).toBe(0)
    expect(g.indexAt(50)).toBe(1)
    expect(g.indexAt(1e9)).toBe(99)
    expect(g.rangeOver(120, 260, 80)).toEqual({ start: 2, end: 6 })
    expect(g.rangeOver(0, 1e9, 10)).toEqual({ start: 0, end: 10 })
    expect(g.rangeFromEnd(120, 80)).toEqual({ start: 97, end: 100 })
    expect(g.rangeFromEnd(1e9, 5)).toEqual({ start: 95, end: 100 })
  })

  it('keeps the row read where it was when a page arrives above it', () => {
    const g = new ListGeometry()
    g.setKeys(keys(100, 200))
    for (let i = 100; i < 200; i++) g.measure(`k${i}`, 80)
    // The viewport's top is 30 px into row k110.
    const anchor = g.anchorAt(10 * 80 + 30)
    expect(anchor).toEqual({ key: 'k110', delta: 30 })
    // A hundred older rows come before it (not measured: 80 px each, the average).
    g.setKeys([...keys(0, 100), ...keys(100, 200)])
    expect(g.topFor(anchor!)).toBe(100 * 80 + 10 * 80 + 30)
    // One older row measured taller: the anchor moves down with it (and with the
    // others, which count as the new average).
    g.measure('k5', 280)
    const average = (100 * 80 + 280) / 101
    expect(g.topFor(anchor!)).toBeCloseTo(99 * average + 280 + 10 * 80 + 30, 6)
  })

  it('keeps the row read when far rows are dropped above it, and forgets their heights', () => {
    const g = new ListGeometry()
    g.setKeys(keys(0, 300))
    for (let i = 0; i < 300; i++) g.measure(`k${i}`, i < 100 ? 40 : 60)
    const anchor = g.anchorAt(100 * 40 + 50 * 60)
    expect(anchor).toEqual({ key: 'k150', delta: 0 })
    g.setKeys(keys(100, 300))
    expect(g.measured('k0')).toBe(false)
    expect(g.topFor(anchor!)).toBe(50 * 60)
    // A row gone: no place for it.
    expect(g.topFor({ key: 'k0', delta: 0 })).toBeNull()
  })
})
