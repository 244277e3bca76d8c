// The two kinds of character the stage shows, behind one shape (StageModel):
// the built-in avatar GLB (rigid parts moved by the clip's nodes, a face of
// morph targets), here, and a user's VRM (vrmModel.ts, with three-vrm in a
// chunk of its own, loaded only for a VRM). Only the lazily loaded avatar
// chunk imports this.

import type { AnimationClip, Object3D, SkinnedMesh } from 'three'
import type { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import type { FaceTarget } from './face'
import { MorphFace } from './faceTargets'
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

/** Bounds are those of the rest pose: a raised arm must not be culled. */
export function noCulling(root: Object3D): void {
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
