// The VRM fixtures (tools/emotegen, frontend/e2e/fixtures) read with the
// stage's own loader in node: the check Settings → Avatar runs before an
// upload, and the retargeted clips binding to the VRM's normalized bones.

import { AnimationMixer, Vector3 } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { describe, expect, it } from 'vitest'
import { stageVRM, vrmLoader, vrmOf } from './vrmModel'
import { checkVRM } from './vrmCheck'

const FIXTURES = new URL('../../e2e/fixtures/', import.meta.url)
const CLIPS = new URL('../../../emotes/glb/', import.meta.url)

/** node:fs, without node's types in the app's tsconfig (this test runs in node). */
const fs = (await import(/* @vite-ignore */ `node:${'fs'}`)) as { readFileSync(path: URL): Uint8Array }

function bytes(url: URL): ArrayBuffer {
  const b = fs.readFileSync(url)
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer
}

describe('checkVRM', () => {
  it('reads the VRM 1.0 and 0.x fixtures', async () => {
    expect(await checkVRM(bytes(new URL('wisp-test.vrm', FIXTURES)))).toMatchObject({ version: '1' })
    expect(await checkVRM(bytes(new URL('wisp-test-0x.vrm', FIXTURES)))).toMatchObject({ version: '0' })
  })

  it('refuses a broken file and a glTF that is not a VRM, with the reason', async () => {
    await expect(checkVRM(bytes(new URL('broken.vrm', FIXTURES)))).rejects.toThrow(/^its glTF data is not valid JSON \(.+\)$/)
    await expect(checkVRM(bytes(new URL('wave.glb', CLIPS)))).rejects.toThrow('it has no VRM extension')
  })
})

describe('a VRM on the stage', () => {
  it.each(['wisp-test.vrm', 'wisp-test-0x.vrm'])('%s plays the built-in wave: a hand rises to the head', async (file) => {
    const vrm = vrmOf(await vrmLoader().parseAsync(bytes(new URL(file, FIXTURES)), ''))
    const model = stageVRM(vrm)
    const wave = (await new GLTFLoader().parseAsync(bytes(new URL('wave.glb', CLIPS)), '')).animations[0]
    expect(wave).toBeDefined()
    const clip = model.adapt(wave!)
    expect(clip.tracks.length).toBeGreaterThanOrEqual(15)
    const mixer = new AnimationMixer(model.root)
    mixer.clipAction(clip).play()
    /** The raw (skinned) bones' world heights, once the humanoid copied the normalized pose to them. */
    const heights = (time: number) => {
      mixer.setTime(time)
      model.pose()
      model.root.updateMatrixWorld(true)
      const y = (bone: 'head' | 'leftHand' | 'rightHand') => vrm.humanoid.getRawBoneNode(bone)?.getWorldPosition(new Vector3()).y ?? NaN
      return { head: y('head'), left: y('leftHand'), right: y('rightHand') }
    }
    const rest = heights(0)
    // At the start both hands hang well below the head; mid-wave one is up by the head.
    expect(Math.max(rest.left, rest.right)).toBeLessThan(rest.head - 0.3)
    const up = heights(1.0)
    // The same hand as the built-in character's (HandL is its left: the VRM's leftHand).
    const builtin = await new GLTFLoader().parseAsync(bytes(new URL('avatar.glb', CLIPS)), '')
    const own = new AnimationMixer(builtin.scene)
    own.clipAction(wave!).play()
    own.setTime(1.0)
    builtin.scene.updateMatrixWorld(true)
    const ownY = (name: string) => builtin.scene.getObjectByName(name)?.getWorldPosition(new Vector3()).y ?? NaN
    const side = ownY('HandL') > ownY('HandR') ? 'left' : 'right'
    expect(up[side]).toBeGreaterThan(up.head - 0.15)
    expect(up[side === 'left' ? 'right' : 'left']).toBeLessThan(up.head - 0.3)
    model.dispose()
  })
})
