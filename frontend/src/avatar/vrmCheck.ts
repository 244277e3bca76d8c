// Reads a .vrm file in the page before it is uploaded (Settings → Avatar):
// the same loader the stage uses (GLTFLoader + three-vrm), so a file the
// stage could not show is refused here with the loader's reason, and nothing
// is sent. Loaded lazily with three.js.

import { VRMUtils } from '@pixiv/three-vrm'
import { parseVRM } from './vrmModel'

export interface VRMInfo {
  /** The model's title from its meta ('' when it has none). */
  title: string
  /** '0' (VRM 0.x) or '1' (VRM 1.0). */
  version: string
}

/** Parses the bytes as a VRM; rejects with the reason when they are not one. */
export async function checkVRM(bytes: ArrayBuffer): Promise<VRMInfo> {
  const vrm = await parseVRM(bytes)
  const meta = vrm.meta
  const info = { title: (meta.metaVersion === '0' ? meta.title : meta.name) ?? '', version: meta.metaVersion }
  VRMUtils.deepDispose(vrm.scene)
  return info
}
