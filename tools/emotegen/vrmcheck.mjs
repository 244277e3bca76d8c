// Loads the VRM fixtures with three.js and @pixiv/three-vrm, as the page does, and
// checks what the browser tests rely on:
//   node tools/emotegen/vrmcheck.mjs [fixture dir]
// It uses frontend/node_modules (or the folder VRM_MODULES names, holding three and
// @pixiv/three-vrm) and needs no browser: GLTFLoader.parse works on an ArrayBuffer.
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

const here = dirname(new URL(import.meta.url).pathname)
const dir = process.argv[2] ?? resolve(here, '../../frontend/e2e/fixtures')
const modules = process.env.VRM_MODULES ?? resolve(here, '../../frontend/node_modules')
const load = (path) => import(pathToFileURL(join(modules, path)).href)
const THREE = await load('three/build/three.module.js')
const { GLTFLoader } = await load('three/examples/jsm/loaders/GLTFLoader.js')
const { VRMLoaderPlugin, VRMUtils } = await load('@pixiv/three-vrm/lib/three-vrm.module.js')

const parse = (file) => {
  const data = readFileSync(join(dir, file))
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
  const loader = new GLTFLoader()
  loader.register((parser) => new VRMLoaderPlugin(parser))
  return new Promise((ok, fail) => loader.parse(buffer, '', ok, fail))
}

let failed = 0
const check = (what, cond) => {
  if (!cond) failed++
  console.log(`${cond ? 'ok  ' : 'FAIL'} ${what}`)
}

const bones = ['hips', 'spine', 'chest', 'neck', 'head', 'leftShoulder', 'leftUpperArm', 'leftLowerArm', 'leftHand',
  'rightShoulder', 'rightUpperArm', 'rightLowerArm', 'rightHand', 'leftUpperLeg', 'leftLowerLeg', 'leftFoot',
  'rightUpperLeg', 'rightLowerLeg', 'rightFoot']

for (const [file, version] of [['wisp-test.vrm', '1'], ['wisp-test-0x.vrm', '0']]) {
  const gltf = await parse(file)
  const vrm = gltf.userData.vrm
  check(`${file}: is a VRM ${version}`, vrm && vrm.meta?.metaVersion === version)
  if (!vrm) continue
  if (version === '0') VRMUtils.rotateVRM0(vrm)
  check(`${file}: has the humanoid bones`, bones.every((b) => vrm.humanoid.getNormalizedBoneNode(b)))
  vrm.update(0)
  vrm.scene.updateMatrixWorld(true)
  const at = (b) => vrm.humanoid.getNormalizedBoneNode(b).getWorldPosition(new THREE.Vector3())
  // T-pose, facing +Z once a 0.x model is turned: the left hand is out along +X
  check(`${file}: T-pose, the left hand out at +X`, at('leftHand').x > at('leftUpperArm').x + 0.3 && Math.abs(at('leftHand').y - at('leftUpperArm').y) < 0.01)
  check(`${file}: the head above the hips`, at('head').y > at('hips').y + 0.3)
  const em = vrm.expressionManager
  for (const name of ['aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'happy', 'sad', 'angry', 'relaxed', 'lookLeft']) {
    check(`${file}: expression ${name}`, !!em?.getExpression(name))
  }
  check(`${file}: expression surprised (1.0 preset, 0.x custom)`, !!em?.getExpression('surprised') || !!em?.getExpression('Surprised'))
  // an expression reaches the face's morph target
  const faces = []
  vrm.scene.traverse((o) => { if (o.morphTargetDictionary && 'aa' in o.morphTargetDictionary) faces.push(o) })
  check(`${file}: the face meshes carry the targets`, faces.length > 0)
  em.setValue('aa', 1)
  em.setValue('blink', 1)
  vrm.update(0)
  const w = (name) => Math.min(...faces.map((f) => f.morphTargetInfluences[f.morphTargetDictionary[name]]))
  check(`${file}: aa = 1 opens the mouth target`, w('aa') > 0.99)
  check(`${file}: blink = 1 closes the eyes`, w('blink') > 0.99)
  check(`${file}: nothing else moves`, w('happy') === 0)
}

let threw = false
try {
  const gltf = await parse('broken.vrm')
  threw = !gltf.userData.vrm
} catch {
  threw = true
}
check('broken.vrm: refused', threw)
if (failed) {
  console.error(`${failed} checks failed`)
  process.exit(1)
}
