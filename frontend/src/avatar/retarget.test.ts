import { AnimationClip, AnimationMixer, Euler, Object3D, Quaternion, QuaternionKeyframeTrack, Vector3, VectorKeyframeTrack } from 'three'
import { describe, expect, it } from 'vitest'
import { BUILTIN_BONES, BUILTIN_HIPS_HEIGHT, retargetClip, type ClipBone } from './retarget'

type Def = [name: string, parent: string | null, offset: [number, number, number]]

/** tools/emotegen/skeleton.go: arms down, facing +Z. */
const BUILTIN: Def[] = [
  ['Hips', null, [0, 0.8, 0]],
  ['Spine', 'Hips', [0, 0.1, 0]],
  ['Chest', 'Spine', [0, 0.16, 0]],
  ['Neck', 'Chest', [0, 0.16, 0]],
  ['Head', 'Neck', [0, 0.06, 0]],
  ['ShoulderL', 'Chest', [0.08, 0.12, 0]],
  ['UpperArmL', 'ShoulderL', [0.11, 0, 0]],
  ['ForeArmL', 'UpperArmL', [0, -0.23, 0]],
  ['HandL', 'ForeArmL', [0, -0.21, 0]],
  ['ShoulderR', 'Chest', [-0.08, 0.12, 0]],
  ['UpperArmR', 'ShoulderR', [-0.11, 0, 0]],
  ['ForeArmR', 'UpperArmR', [0, -0.23, 0]],
  ['HandR', 'ForeArmR', [0, -0.21, 0]],
  ['UpperLegL', 'Hips', [0.09, -0.05, 0]],
  ['LowerLegL', 'UpperLegL', [0, -0.34, 0]],
  ['FootL', 'LowerLegL', [0, -0.33, 0]],
  ['UpperLegR', 'Hips', [-0.09, -0.05, 0]],
  ['LowerLegR', 'UpperLegR', [0, -0.34, 0]],
  ['FootR', 'LowerLegR', [0, -0.33, 0]],
]

/** A VRM-like normalized rig: a T-pose (arms out along ±X), 1.2× taller, every bone unrotated. */
function tPose(scale: number, facing: 1 | -1): Def[] {
  const arm = (x: number): [number, number, number] => [x * scale * facing, 0, 0]
  return BUILTIN.map(([name, parent, [x, y, z]]): Def => {
    if (/^(ForeArm|Hand)L$/.test(name)) return [name, parent, arm(Math.abs(y))]
    if (/^(ForeArm|Hand)R$/.test(name)) return [name, parent, arm(-Math.abs(y))]
    return [name, parent, [x * scale * facing, y * scale, z * scale * facing]]
  })
}

function build(defs: Def[], nameOf: (name: string) => string = (n) => n): { root: Object3D; nodes: Map<string, Object3D> } {
  const root = new Object3D()
  const nodes = new Map<string, Object3D>()
  for (const [name, parent, offset] of defs) {
    const o = new Object3D()
    o.name = nameOf(name)
    o.position.fromArray(offset)
    ;(parent === null ? root : nodes.get(parent))?.add(o)
    nodes.set(name, o)
  }
  return { root, nodes }
}

/** A one-key clip: some bones turned, the hips raised. */
function pose(): AnimationClip {
  const rot = (name: string, x: number, y: number, z: number) =>
    new QuaternionKeyframeTrack(`${name}.quaternion`, [0], new Quaternion().setFromEuler(new Euler(x, y, z)).toArray())
  return new AnimationClip('pose', 1, [
    rot('Hips', 0, 0.3, 0),
    rot('Spine', 0.1, 0, 0.05),
    rot('UpperArmL', 0.4, 0.2, 1.2), // raised to the side and forward
    rot('ForeArmL', -0.9, 0, 0),
    rot('HandL', 0.2, 0.3, 0),
    rot('UpperArmR', -0.5, 0, -0.3),
    rot('ForeArmR', -0.4, 0.2, 0),
    rot('UpperLegL', -0.6, 0, 0),
    rot('LowerLegL', 0.8, 0, 0),
    new VectorKeyframeTrack('Hips.position', [0], [0.05, BUILTIN_HIPS_HEIGHT + 0.1, -0.02]),
  ])
}

/** Applies a clip's first frame to root, and the world direction of each bone's segment to its child. */
function directions(root: Object3D, clip: AnimationClip, nodes: Map<string, Object3D>): Map<string, Vector3> {
  const mixer = new AnimationMixer(root)
  mixer.clipAction(clip).play()
  mixer.setTime(0)
  root.updateMatrixWorld(true)
  const out = new Map<string, Vector3>()
  for (const [name, parent] of BUILTIN) {
    if (parent === null) continue
    const a = nodes.get(parent)?.getWorldPosition(new Vector3())
    const b = nodes.get(name)?.getWorldPosition(new Vector3())
    if (a !== undefined && b !== undefined) out.set(`${parent}>${name}`, b.sub(a).normalize())
  }
  return out
}

function rigOf(nodes: Map<string, Object3D>, vrm0: boolean) {
  const byBone = new Map(Object.entries(BUILTIN_BONES).map(([name, bone]) => [bone, nodes.get(name) ?? null]))
  return {
    node: (bone: ClipBone) => byBone.get(bone) ?? null,
    hipsRest: nodes.get('Hips')?.position.clone() ?? new Vector3(),
    vrm0,
  }
}

describe('retargetClip', () => {
  it('leaves a VRM 1.0 T-pose posed like the built-in avatar, bone for bone', () => {
    const builtin = build(BUILTIN)
    const want = directions(builtin.root, pose(), builtin.nodes)
    const vrm = build(tPose(1.2, 1), (n) => `Normalized_${n}`)
    const clip = retargetClip(pose(), rigOf(vrm.nodes, false))
    const got = directions(vrm.root, clip, vrm.nodes)
    expect(got.size).toBe(want.size)
    for (const [seg, dir] of want) expect(got.get(seg)?.distanceTo(dir) ?? 1, seg).toBeLessThan(1e-6)
    // The hips: raised by the same share of the (taller) hips height.
    expect(vrm.nodes.get('Hips')?.position.y).toBeCloseTo(1.2 * (BUILTIN_HIPS_HEIGHT + 0.1))
    expect(vrm.nodes.get('Hips')?.position.x).toBeCloseTo(1.2 * 0.05)
  })

  it('hangs the arms at rest', () => {
    const identity = new AnimationClip('rest', 1, [
      new QuaternionKeyframeTrack('UpperArmL.quaternion', [0], [0, 0, 0, 1]),
      new QuaternionKeyframeTrack('UpperArmR.quaternion', [0], [0, 0, 0, 1]),
    ])
    const vrm = build(tPose(1, 1))
    const clip = retargetClip(identity, rigOf(vrm.nodes, false))
    const d = directions(vrm.root, clip, vrm.nodes)
    expect(d.get('UpperArmL>ForeArmL')?.distanceTo(new Vector3(0, -1, 0))).toBeLessThan(1e-6)
    expect(d.get('UpperArmR>ForeArmR')?.distanceTo(new Vector3(0, -1, 0))).toBeLessThan(1e-6)
  })

  it('turns a VRM 0.x rig (facing −Z) the same way once its scene is turned around', () => {
    const builtin = build(BUILTIN)
    const want = directions(builtin.root, pose(), builtin.nodes)
    const vrm = build(tPose(1, -1))
    const clip = retargetClip(pose(), rigOf(vrm.nodes, true))
    vrm.root.rotation.y = Math.PI // VRMUtils.rotateVRM0
    const got = directions(vrm.root, clip, vrm.nodes)
    for (const [seg, dir] of want) expect(got.get(seg)?.distanceTo(dir) ?? 1, seg).toBeLessThan(1e-6)
  })

  it('drops the tracks of bones the model does not have, and others it does not know', () => {
    const vrm = build(tPose(1, 1))
    const rig = rigOf(vrm.nodes, false)
    const clip = retargetClip(
      new AnimationClip('x', 2, [
        new QuaternionKeyframeTrack('Chest.quaternion', [0], [0, 0, 0, 1]),
        new QuaternionKeyframeTrack('Flame.quaternion', [0], [0, 0, 0, 1]),
        new QuaternionKeyframeTrack('Head.quaternion', [0, 1], [0, 0, 0, 1, 0, 0, 0, 1]),
      ]),
      { ...rig, node: (bone) => (bone === 'chest' ? null : rig.node(bone)) },
    )
    expect(clip.duration).toBe(2)
    expect(clip.tracks.map((t) => t.name)).toEqual([`${vrm.nodes.get('Head')?.uuid}.quaternion`])
  })
})
