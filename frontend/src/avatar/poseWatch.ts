// Whether the idle pose has visibly moved since the frame last drawn. The
// idle animation (slow breathing and sway) moves the character a few pixels a
// second, so most idle frames would draw nearly the same picture again, and
// without a GPU each frame drawn costs WebKit a full-window composite in
// software GL. So the stage advances the animation at the idle rate but draws
// only when some mark on the model has moved by MIN_SHIFT_PX on screen.

import { Vector3, type Camera, type Object3D } from 'three'

/**
 * The smallest on-screen move, in drawing-buffer pixels, worth drawing an idle
 * frame for. With the idle clip on the 300 px stage: 1 px draws about 4.4
 * frames a second, 3 px 1.6, 4 px 1.2 and 5 px 0.8; under Xvfb without a GPU
 * each frame a second costs about 4% of a core, and the target at idle is 5%
 * (bench/desktopidle).
 */
export const MIN_SHIFT_PX = 5

/** How far from each bone's origin its two other marks sit, in world units (the avatar is ~1.6 tall). */
const MARK_REACH = 0.12

/** The largest distance between matching points of two [x0, y0, x1, y1, …] lists; Infinity if they differ in length. */
export function maxShift(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) return Number.POSITIVE_INFINITY
  let max = 0
  for (let i = 0; i + 1 < a.length; i += 2) {
    const dx = (a[i] ?? 0) - (b[i] ?? 0)
    const dy = (a[i + 1] ?? 0) - (b[i + 1] ?? 0)
    max = Math.max(max, Math.hypot(dx, dy))
  }
  return max
}

/**
 * The on-screen positions of marks on a skeleton: each bone's (or node's)
 * origin and two points a little along its own y and z axes, so a turn moves
 * a mark as well as a shift does.
 */
export class PoseWatch {
  private readonly root: Object3D
  private readonly bones: Object3D[]
  private readonly offsets = [new Vector3(), new Vector3(0, MARK_REACH, 0), new Vector3(0, 0, MARK_REACH)]
  private readonly v = new Vector3()
  private drawn: Float32Array | null = null

  /**
   * Watches root's bones, or, for a model of rigid parts moved by their nodes
   * (as Wisp's avatar is), every node under root; root itself when it has none.
   */
  constructor(root: Object3D) {
    this.root = root
    const bones: Object3D[] = []
    const nodes: Object3D[] = []
    root.traverse((o) => {
      if ((o as Object3D & { isBone?: boolean }).isBone === true) bones.push(o)
      else if (o !== root) nodes.push(o)
    })
    this.bones = bones.length > 0 ? bones : nodes.length > 0 ? nodes : [root]
  }

  /** The marks' positions in pixels of a width × height drawing buffer seen through camera. */
  sample(camera: Camera, width: number, height: number): Float32Array {
    this.root.updateMatrixWorld(true)
    camera.updateMatrixWorld()
    const out = new Float32Array(this.bones.length * this.offsets.length * 2)
    let i = 0
    for (const bone of this.bones) {
      for (const offset of this.offsets) {
        this.v.copy(offset).applyMatrix4(bone.matrixWorld).project(camera)
        out[i++] = ((this.v.x + 1) / 2) * width
        out[i++] = ((1 - this.v.y) / 2) * height
      }
    }
    return out
  }

  /** Remembers marks as those of the frame just drawn. */
  markDrawn(marks: Float32Array): void {
    this.drawn = marks
  }

  /** Whether marks have moved at least MIN_SHIFT_PX from the frame last drawn (always, before any). */
  movedFromDrawn(marks: Float32Array): boolean {
    return this.drawn === null || maxShift(this.drawn, marks) >= MIN_SHIFT_PX
  }
}
