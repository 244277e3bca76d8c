// Where the face's weights (face.ts) land: the built-in avatar's morph
// targets, found by name in every mesh's morphTargetDictionary (the
// generator gives each face mesh the same names, tools/emotegen), or a VRM's
// expression presets and its look-at. A name the model lacks is skipped.

import type { Object3D } from 'three'
import type { VRM } from '@pixiv/three-vrm'
import type { FacePreset, FaceTarget } from './face'

interface Slot {
  influences: number[]
  index: number
}

/** The built-in avatar's face: every mesh's morph target of that name. */
export class MorphFace implements FaceTarget {
  private readonly slots = new Map<string, Slot[]>()

  constructor(root: Object3D) {
    root.traverse((o) => {
      const mesh = o as Object3D & { morphTargetDictionary?: Record<string, number>; morphTargetInfluences?: number[] }
      const dict = mesh.morphTargetDictionary
      const influences = mesh.morphTargetInfluences
      if (dict === undefined || influences === undefined) return
      for (const [name, index] of Object.entries(dict)) {
        let list = this.slots.get(name)
        if (list === undefined) this.slots.set(name, (list = []))
        list.push({ influences, index })
      }
    })
  }

  /** The preset names this model has. */
  get names(): string[] {
    return [...this.slots.keys()]
  }

  set(name: FacePreset, weight: number): void {
    const list = this.slots.get(name)
    if (list === undefined) return
    for (const slot of list) slot.influences[slot.index] = weight
  }
}

type LookPreset = 'lookLeft' | 'lookRight' | 'lookUp' | 'lookDown'

/** How far a full glance turns a VRM's eyes, in degrees. */
const LOOK_YAW_DEG = 14
const LOOK_PITCH_DEG = 9

/**
 * A VRM's face: its expression manager by preset name (three-vrm maps VRM
 * 0.x's A, Joy, Sorrow… to the same names); glances turn its look-at when it
 * has one (its own eye bones or look expressions), else set the look presets.
 * The weights show after vrm.update().
 */
export class VRMFace implements FaceTarget {
  private readonly vrm: VRM
  private readonly look: Record<LookPreset, number> = { lookLeft: 0, lookRight: 0, lookUp: 0, lookDown: 0 }

  constructor(vrm: VRM) {
    this.vrm = vrm
  }

  set(name: FacePreset, weight: number): void {
    const lookAt = this.vrm.lookAt
    if (lookAt !== null && lookAt !== undefined && name in this.look) {
      this.look[name as LookPreset] = weight
      lookAt.yaw = (this.look.lookLeft - this.look.lookRight) * LOOK_YAW_DEG
      lookAt.pitch = (this.look.lookUp - this.look.lookDown) * LOOK_PITCH_DEG
      return
    }
    this.vrm.expressionManager?.setValue(name, weight)
  }
}
