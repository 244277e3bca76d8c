import { Bone, Group, PerspectiveCamera } from 'three'
import { describe, expect, it } from 'vitest'
import { MIN_SHIFT_PX, PoseWatch, maxShift } from './poseWatch'

describe('maxShift', () => {
  it('is the largest distance between matching points', () => {
    expect(maxShift([0, 0, 10, 10], [0, 0, 13, 14])).toBe(5)
    expect(maxShift([1, 2], [1, 2])).toBe(0)
    expect(maxShift([], [])).toBe(0)
    expect(maxShift([0, 0], [0, 0, 1, 1])).toBe(Number.POSITIVE_INFINITY)
  })
})

/** World units per pixel where the camera looks: 2 m away with a 30° view, 400 px span about 1.07 m. */
const UNITS_PER_PX = (2 * 2 * Math.tan(Math.PI / 12)) / 400

/** A two-bone arm 2 m in front of a camera, seen in a 400 × 400 buffer. */
function setup() {
  const root = new Group()
  const shoulder = new Bone()
  const elbow = new Bone()
  elbow.position.set(0, 0.3, 0)
  shoulder.add(elbow)
  root.add(shoulder)
  const camera = new PerspectiveCamera(30, 1, 0.05, 50)
  camera.position.set(0, 0, 2)
  camera.lookAt(0, 0, 0)
  camera.updateProjectionMatrix()
  const watch = new PoseWatch(root)
  const marks = () => watch.sample(camera, 400, 400)
  return { shoulder, elbow, watch, marks }
}

describe('PoseWatch', () => {
  it('has always moved before a frame is drawn', () => {
    const { watch, marks } = setup()
    expect(watch.movedFromDrawn(marks())).toBe(true)
  })

  it('samples three marks per bone, in pixels of the buffer', () => {
    const { marks } = setup()
    const m = marks()
    expect(m.length).toBe(2 * 3 * 2)
    // The shoulder sits where the camera looks: the middle of the buffer.
    expect(m[0]).toBeCloseTo(200, 3)
    expect(m[1]).toBeCloseTo(200, 3)
  })

  it('sees a move below MIN_SHIFT_PX as no move, and a larger one or a turn as one', () => {
    const { shoulder, elbow, watch, marks } = setup()
    watch.markDrawn(marks())
    // 0.1 mm is far below a pixel.
    shoulder.position.x += 0.0001
    expect(watch.movedFromDrawn(marks())).toBe(false)
    shoulder.position.x += 1.5 * MIN_SHIFT_PX * UNITS_PER_PX
    expect(watch.movedFromDrawn(marks())).toBe(true)
    watch.markDrawn(marks())
    expect(watch.movedFromDrawn(marks())).toBe(false)
    // A turn of the elbow about its own length moves no origin, but moves its z mark (12 cm out: ~13 px).
    elbow.rotation.y = 0.3
    expect(watch.movedFromDrawn(marks())).toBe(true)
  })

  it('compares against the last frame drawn, not the last one sampled', () => {
    const { shoulder, watch, marks } = setup()
    watch.markDrawn(marks())
    const step = 0.6 * MIN_SHIFT_PX * UNITS_PER_PX
    shoulder.position.x += step
    expect(watch.movedFromDrawn(marks())).toBe(false)
    shoulder.position.x += step
    expect(watch.movedFromDrawn(marks())).toBe(true)
  })
})
