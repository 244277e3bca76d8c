// Where the camera stands so the whole character fits the stage, at any
// aspect ratio. No three.js here.

export interface Subject {
  /** World height to keep in view (feet to raised hands), in units. */
  height: number
  /** World width to keep in view (arms out). */
  width: number
  /** The height the camera looks at. */
  centerY: number
}

/**
 * The avatar: ~1.6 units tall (1.75 with its flame), feet at y=0. The view
 * runs from a little below the feet (room for the floor disc and the
 * caption) to above raised hands.
 */
export const AVATAR_SUBJECT: Subject = { height: 2.3, width: 1.6, centerY: 0.8 }

/** Camera distance from the subject's centre for a vertical field of view (degrees) and aspect (w/h). */
export function cameraDistance(fovDeg: number, aspect: number, subject: Pick<Subject, 'height' | 'width'>): number {
  const halfV = (fovDeg * Math.PI) / 360
  const tanV = Math.tan(halfV)
  const tanH = tanV * (aspect > 0 ? aspect : 1)
  return Math.max(subject.height / 2 / tanV, subject.width / 2 / tanH)
}
