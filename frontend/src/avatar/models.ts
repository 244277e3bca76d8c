// The two kinds of character the stage shows, behind one shape (StageModel):
// the built-in avatar GLB (rigid parts moved by the clip's nodes, a face of
// morph targets) and a user's VRM (three-vrm: a skinned humanoid whose
// normalized bones the retargeted clips move, expressions, look-at and
// spring bones). Only the lazily loaded avatar chunk imports this.

import type { AnimationClip, Object3D, SkinnedMesh } from 'three'
import { Vector3 } from 'three'
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm'
import type { FaceTarget } from './face'
import { MorphFace, VRMFace } from './faceTargets'
import { retargetClip, type ClipBone } from './retarget'
import { disposeTree } from './stageScene'

export type AvatarKind = 'builtin' | 'vrm'

/** A character on the stage. */
export interface StageModel {
  readonly kind: AvatarKind
  /** The VRM's title (its meta name), if it has one. */
  readonly title: string
  /** What the stage adds to its scene, and the animation mixer's root. */
  readonly root: Object3D
  readonly face: FaceTarget
  /** The built-in clip as this character plays it. */
  adapt(clip: AnimationClip): AnimationClip
  /** After the mixer moved the bones: the pose as it will be drawn (a VRM copies its normalized bones to its skin). */
  pose(): void
  /** Before a frame is drawn, dt seconds after the last drawn one: what moves with drawn frames only (a VRM's expressions, eyes, spring bones). */
  beforeDraw(dt: number): void
  dispose(): void
}

/** The longest step spring bones are simulated over at once: a long pause does not fling the hair. */
const MAX_SPRING_STEP = 0.1

/** Bounds are those of the rest pose: a raised arm must not be culled. */
function noCulling(root: Object3D): void {
  root.traverse((o) => {
    if ((o as Partial<SkinnedMesh>).isSkinnedMesh === true) o.frustumCulled = false
  })
}

/** Loads the built-in avatar GLB. */
export async function loadBuiltin(loader: GLTFLoader, url: string): Promise<StageModel> {
  const gltf = await loader.loadAsync(url)
  const root: Object3D = gltf.scene
  noCulling(root)
  return {
    kind: 'builtin',
    title: '',
    root,
    face: new MorphFace(root),
    adapt: (clip) => clip,
    pose: () => undefined,
    beforeDraw: () => undefined,
    dispose: () => disposeTree(root),
  }
}

/** A GLTF loader that also reads VRM 0.x and 1.0 extensions. */
export function vrmLoader(): GLTFLoader {
  const loader = new GLTFLoader()
  loader.register((parser) => new VRMLoaderPlugin(parser))
  return loader
}

/** The VRM of a loaded glTF; throws when the file is a glTF but not a VRM. */
export function vrmOf(gltf: GLTF): VRM {
  const vrm = (gltf.userData as { vrm?: VRM }).vrm
  if (vrm === undefined) {
    VRMUtils.deepDispose(gltf.scene)
    throw new Error('it has no VRM extension (VRMC_vrm or VRM)')
  }
  return vrm
}

/** Loads a VRM model; rejects with the loader's reason when it cannot be read. */
export async function loadVRM(loader: GLTFLoader, url: string): Promise<StageModel> {
  const vrm = vrmOf(await loader.loadAsync(url))
  return stageVRM(vrm)
}

/** A loaded VRM ready for the stage: turned to face the camera, its clips retargeted. */
export function stageVRM(vrm: VRM): StageModel {
  const vrm0 = vrm.meta.metaVersion === '0'
  VRMUtils.rotateVRM0(vrm) // 0.x faces −Z
  VRMUtils.removeUnnecessaryVertices(vrm.scene)
  noCulling(vrm.scene)
  const humanoid = vrm.humanoid
  const hips = humanoid.getNormalizedBoneNode('hips')
  const rig = {
    node: (bone: ClipBone) => humanoid.getNormalizedBoneNode(bone),
    hipsRest: hips?.position.clone() ?? new Vector3(),
    vrm0,
  }
  const adapted = new WeakMap<AnimationClip, AnimationClip>()
  return {
    kind: 'vrm',
    title: (vrm.meta.metaVersion === '0' ? vrm.meta.title : vrm.meta.name) ?? '',
    root: vrm.scene,
    face: new VRMFace(vrm),
    adapt: (clip) => {
      let out = adapted.get(clip)
      if (out === undefined) adapted.set(clip, (out = retargetClip(clip, rig)))
      return out
    },
    pose: () => humanoid.update(),
    beforeDraw: (dt) => vrm.update(Math.min(dt, MAX_SPRING_STEP)),
    dispose: () => VRMUtils.deepDispose(vrm.scene),
  }
}
