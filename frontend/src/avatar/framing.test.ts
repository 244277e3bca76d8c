import { describe, expect, it } from 'vitest'
import { cameraDistance } from './framing'

describe('cameraDistance', () => {
  const subject = { height: 2, width: 1 }

  it('fits the height on wide stages', () => {
    const d = cameraDistance(30, 2, subject)
    expect(2 * d * Math.tan((15 * Math.PI) / 180)).toBeCloseTo(2, 6)
  })

  it('backs off on narrow stages so the width fits too', () => {
    const wide = cameraDistance(30, 1.2, subject)
    const narrow = cameraDistance(30, 0.3, subject)
    expect(narrow).toBeGreaterThan(wide)
    expect(2 * narrow * Math.tan((15 * Math.PI) / 180) * 0.3).toBeCloseTo(1, 6)
  })

  it('treats a zero aspect as square', () => {
    expect(cameraDistance(30, 0, subject)).toBe(cameraDistance(30, 1, subject))
  })
})
