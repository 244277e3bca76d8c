// Plays the built-in emote clips on a VRM character: the clips animate the
// built-in skeleton (tools/emotegen/skeleton.go: Hips … FootR, every bone
// unrotated at rest, arms hanging down, facing +Z, hips 0.80 above the
// feet), and this rewrites each track for the VRM's normalized humanoid bones
// (three-vrm's rig whose rest is a T-pose with every bone unrotated). Only
// three.js math here, no loading.
//
// The two rests differ in the arms only: a built-in arm points down (−Y), a
// VRM arm out to the side (±X). With R the turn from the VRM's arm direction
// to the built-in's, an upper arm's rotation q becomes q·R (the arm hangs at
// rest) and the forearm's and hand's become R⁻¹·q·R (the same turn, in the
// rotated frame), so every bone ends up pointing where the built-in's does.
// The hips' translation is scaled by the ratio of the hips' heights (a taller
// character bobs and jumps higher). A VRM 0.x model faces −Z
// (VRMUtils.rotateVRM0 turns its scene), so its rotations and translations
// are turned 180° about Y: (x, y, z) → (−x, y, −z).

import {
  AnimationClip,
  Quaternion,
  QuaternionKeyframeTrack,
  Vector3,
  VectorKeyframeTrack,
  type KeyframeTrack,
  type Object3D,
} from 'three'

/** The VRM humanoid bones the built-in clips animate (the subset of VRMHumanBoneName they use). */
export type ClipBone =
  | 'hips'
  | 'spine'
  | 'chest'
  | 'neck'
  | 'head'
  | 'leftShoulder'
  | 'leftUpperArm'
  | 'leftLowerArm'
  | 'leftHand'
  | 'rightShoulder'
  | 'rightUpperArm'
  | 'rightLowerArm'
  | 'rightHand'
  | 'leftUpperLeg'
  | 'leftLowerLeg'
  | 'leftFoot'
  | 'rightUpperLeg'
  | 'rightLowerLeg'
  | 'rightFoot'

/** The built-in skeleton's node names (skeleton.go) → VRM humanoid bones. */
export const BUILTIN_BONES: Readonly<Record<string, ClipBone>> = {
  Hips: 'hips',
  Spine: 'spine',
  Chest: 'chest',
  Neck: 'neck',
  Head: 'head',
  ShoulderL: 'leftShoulder',
  UpperArmL: 'leftUpperArm',
  ForeArmL: 'leftLowerArm',
  HandL: 'leftHand',
  ShoulderR: 'rightShoulder',
  UpperArmR: 'rightUpperArm',
  ForeArmR: 'rightLowerArm',
  HandR: 'rightHand',
  UpperLegL: 'leftUpperLeg',
  LowerLegL: 'leftLowerLeg',
  FootL: 'leftFoot',
  UpperLegR: 'rightUpperLeg',
  LowerLegR: 'rightLowerLeg',
  FootR: 'rightFoot',
}

/** The built-in hips' height at rest (skeleton.go). */
export const BUILTIN_HIPS_HEIGHT = 0.8

const Z = new Vector3(0, 0, 1)
/** Turns a VRM left arm (+X) to hang like the built-in's (−Y); the right arm (−X) the other way. */
const LEFT_ARM_REST = new Quaternion().setFromAxisAngle(Z, -Math.PI / 2)
const RIGHT_ARM_REST = new Quaternion().setFromAxisAngle(Z, Math.PI / 2)

/** How a bone's rotation changes between the rests: q → pre·q·post. */
interface RestChange {
  pre: Quaternion
  post: Quaternion
}

const ID = new Quaternion()
const REST_CHANGES: Partial<Record<ClipBone, RestChange>> = {
  leftUpperArm: { pre: ID, post: LEFT_ARM_REST },
  leftLowerArm: { pre: LEFT_ARM_REST.clone().invert(), post: LEFT_ARM_REST },
  leftHand: { pre: LEFT_ARM_REST.clone().invert(), post: LEFT_ARM_REST },
  rightUpperArm: { pre: ID, post: RIGHT_ARM_REST },
  rightLowerArm: { pre: RIGHT_ARM_REST.clone().invert(), post: RIGHT_ARM_REST },
  rightHand: { pre: RIGHT_ARM_REST.clone().invert(), post: RIGHT_ARM_REST },
}

/** What the retargeting needs of a loaded VRM. */
export interface RetargetRig {
  /** The normalized node of a humanoid bone; null when the model has none (the track is dropped). */
  node(bone: ClipBone): Object3D | null
  /** The normalized hips' rest position. */
  hipsRest: Vector3
  /** A VRM 0.x model (faces −Z). */
  vrm0: boolean
}

/** The clip rewritten for the rig's normalized bones (tracks named by node uuid); the input is left as it is. */
export function retargetClip(clip: AnimationClip, rig: RetargetRig): AnimationClip {
  const tracks: KeyframeTrack[] = []
  const scale = rig.hipsRest.y > 0 ? rig.hipsRest.y / BUILTIN_HIPS_HEIGHT : 1
  for (const track of clip.tracks) {
    const dot = track.name.lastIndexOf('.')
    const boneName = BUILTIN_BONES[track.name.slice(0, dot)]
    const property = track.name.slice(dot + 1)
    if (boneName === undefined) continue
    const node = rig.node(boneName)
    if (node === null) continue
    if (property === 'quaternion') {
      tracks.push(new QuaternionKeyframeTrack(`${node.uuid}.quaternion`, Array.from(track.times), rotations(track.values, boneName, rig.vrm0)))
    } else if (property === 'position' && boneName === 'hips') {
      tracks.push(new VectorKeyframeTrack(`${node.uuid}.position`, Array.from(track.times), hipsPositions(track.values, rig, scale)))
    }
  }
  return new AnimationClip(clip.name, clip.duration, tracks)
}

function rotations(values: ArrayLike<number>, bone: ClipBone, vrm0: boolean): number[] {
  const change = REST_CHANGES[bone]
  const q = new Quaternion()
  const out: number[] = new Array<number>(values.length)
  for (let i = 0; i + 3 < values.length; i += 4) {
    q.set(values[i] ?? 0, values[i + 1] ?? 0, values[i + 2] ?? 0, values[i + 3] ?? 1)
    if (change !== undefined) q.premultiply(change.pre).multiply(change.post)
    out[i] = vrm0 ? -q.x : q.x
    out[i + 1] = q.y
    out[i + 2] = vrm0 ? -q.z : q.z
    out[i + 3] = q.w
  }
  return out
}

function hipsPositions(values: ArrayLike<number>, rig: RetargetRig, scale: number): number[] {
  const out: number[] = new Array<number>(values.length)
  const flip = rig.vrm0 ? -1 : 1
  for (let i = 0; i + 2 < values.length; i += 3) {
    out[i] = rig.hipsRest.x + flip * (values[i] ?? 0) * scale
    out[i + 1] = rig.hipsRest.y + ((values[i + 1] ?? 0) - BUILTIN_HIPS_HEIGHT) * scale
    out[i + 2] = rig.hipsRest.z + flip * (values[i + 2] ?? 0) * scale
  }
  return out
}
