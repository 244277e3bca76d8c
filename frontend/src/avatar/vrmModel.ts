// A user's VRM on the stage (three-vrm, 0.x and 1.0): a skinned humanoid
// whose normalized bones the retargeted built-in clips move (retarget.ts),
// with expressions, look-at and spring bones updated only for drawn frames.
// A chunk of its own: the stage imports it only to show a VRM, Settings →
// Avatar only to check a file (vrmCheck.ts).

import type { AnimationClip } from 'three'
import { Vector3 } from 'three'
import { GLTFLoader, type GLTF } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { VRMLoaderPlugin, VRMUtils, type VRM } from '@pixiv/three-vrm'
import { VRMFace } from './faceTargets'
import { noCulling, type StageModel } from './models'
import { retargetClip, type ClipBone } from './retarget'

/** The longest step spring bones are simulated over at once: a long pause does not fling the hair. */
const MAX_SPRING_STEP = 0.1

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
  const vrm = vrmOf(await loader.loadAsync(url).catch(explained))
  return stageVRM(vrm)
}

/** Parses a VRM file's bytes (vrmCheck.ts); rejects with the reason when they are not one. */
export async function parseVRM(bytes: ArrayBuffer): Promise<VRM> {
  return vrmOf(await vrmLoader().parseAsync(bytes, '').catch(explained))
}

/** The loader's error, said for a person: a JSON parser's message alone does not say what is wrong. */
function explained(err: unknown): never {
  if (err instanceof SyntaxError) throw new Error(`its glTF data is not valid JSON (${err.message})`, { cause: err })
  throw err
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
