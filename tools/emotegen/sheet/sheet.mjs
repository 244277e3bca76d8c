// Renders a contact sheet of emote clips, for whoever authors them to look at:
//   node tools/emotegen/sheet/sheet.mjs <glb dir> <out.png> [--morph name=weight ...] [id ...]
// Each row is one clip; its columns are the pose at evenly spaced moments of the clip.
// --morph sets a face morph target (e.g. --morph aa=1 --morph happy=0.5) on every pose.
//   node tools/emotegen/sheet/sheet.mjs <glb dir> <out.png> --faces
// draws the face close up: at rest, then each morph target at weight 1.
// --avatar <file> draws another model (a VRM fixture, say) in place of avatar.glb; the
// clips move it only if its nodes are named like the avatar's.
// It uses three.js from frontend/node_modules and Debian's Chromium with software WebGL.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'

const here = dirname(new URL(import.meta.url).pathname)
const frontend = resolve(here, '../../../frontend')
const require = createRequire(join(frontend, 'package.json'))
const { chromium } = require('playwright-core')
const threeDir = join(frontend, 'node_modules/three')

const [glbDir, out, ...rest] = process.argv.slice(2)
const ids = [], morphs = {}
let faces = false, avatarFile = join(glbDir, 'avatar.glb')
for (let i = 0; i < rest.length; i++) {
  if (rest[i] === '--faces') faces = true
  else if (rest[i] === '--avatar') avatarFile = rest[++i]
  else if (rest[i] === '--morph') {
    const [name, weight] = rest[++i].split('=')
    morphs[name] = Number(weight ?? 1)
  } else ids.push(rest[i])
}
const catalog = JSON.parse(readFileSync(resolve(here, '../../../emotes/catalog.json'), 'utf8'))
const targets = ['', 'aa', 'ih', 'ou', 'ee', 'oh', 'blink', 'blinkLeft', 'blinkRight', 'happy', 'angry',
  'sad', 'relaxed', 'surprised', 'lookUp', 'lookDown', 'lookLeft', 'lookRight']
const cols = Number(process.env.COLS ?? 6)
const clips = faces
  ? Array.from({ length: Math.ceil(targets.length / cols) }, (_, r) => ({ id: 'idle', duration: 0, faces: targets.slice(r * cols, r * cols + cols) }))
  : ids.length ? catalog.filter((e) => ids.includes(e.id)) : catalog
const cell = Number(process.env.CELL ?? 200)

const page = `<!doctype html><html><body style="margin:0;background:#1d2230">
<script type="importmap">{"imports":{"three":"/three/build/three.module.js","three/addons/":"/three/examples/jsm/"}}</script>
<canvas id="c"></canvas>
<script type="module">
import * as THREE from 'three'
import { GLTFLoader } from 'three/addons/loaders/GLTFLoader.js'
const clips = ${JSON.stringify(clips.map((c) => ({ id: c.id, duration: c.duration, faces: c.faces })))}
const cols = ${cols}, cell = ${cell}
const canvas = document.getElementById('c')
const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true })
renderer.setSize(cols * cell, clips.length * cell)
renderer.setScissorTest(true)
const scene = new THREE.Scene()
scene.add(new THREE.HemisphereLight(0xffffff, 0x445566, 2.2))
const sun = new THREE.DirectionalLight(0xffffff, 2.2); sun.position.set(2, 4, 3); scene.add(sun)
const floor = new THREE.Mesh(new THREE.CircleGeometry(0.9, 32), new THREE.MeshStandardMaterial({ color: 0x3a4256 }))
floor.rotation.x = -Math.PI / 2; scene.add(floor)
const camera = new THREE.PerspectiveCamera(30, 1, 0.1, 20)
const faces = ${faces}, morphs = ${JSON.stringify(morphs)}
if (faces) { camera.position.set(0.25, 1.35, 1.1); camera.lookAt(0, 1.33, 0) }
else { camera.position.set(1.6, 1.5, 3.6); camera.lookAt(0, 0.85, 0) }
const loader = new GLTFLoader()
const avatar = await loader.loadAsync('/glb/avatar.glb')
scene.add(avatar.scene)
const faceMeshes = []
avatar.scene.traverse((o) => { if (o.morphTargetDictionary) faceMeshes.push(o) })
const setFace = (weights) => {
  for (const m of faceMeshes) {
    m.morphTargetInfluences.fill(0)
    for (const [name, w] of Object.entries(weights)) {
      const i = m.morphTargetDictionary[name]
      if (i === undefined) throw new Error('no morph target ' + name)
      m.morphTargetInfluences[i] = w
    }
  }
}
setFace(morphs)
const mixer = new THREE.AnimationMixer(avatar.scene)
for (const [row, c] of clips.entries()) {
  const g = await loader.loadAsync('/glb/' + c.id + '.glb')
  const action = mixer.clipAction(g.animations[0]); action.play()
  for (let col = 0; col < cols; col++) {
    if (c.faces) {
      if (col >= c.faces.length) continue
      setFace(c.faces[col] ? { [c.faces[col]]: 1 } : {})
    }
    mixer.setTime(c.duration * col / (cols - 1) * 0.999)
    const y = (clips.length - 1 - row) * cell
    renderer.setViewport(col * cell, y, cell, cell); renderer.setScissor(col * cell, y, cell, cell)
    renderer.render(scene, camera)
  }
  action.stop(); mixer.uncacheClip(g.animations[0])
}
document.title = 'done'
</script></body></html>`

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--ignore-gpu-blocklist'],
})
const tab = await browser.newPage({ viewport: { width: cols * cell, height: clips.length * cell } })
tab.on('console', (m) => console.error('[page]', m.text()))
tab.on('pageerror', (e) => console.error('[page error]', e))
await tab.route('http://sheet.local/**', (route) => {
  const path = new URL(route.request().url()).pathname
  if (path === '/') return route.fulfill({ contentType: 'text/html', body: page })
  if (path.startsWith('/three/')) return route.fulfill({ contentType: 'text/javascript', body: readFileSync(join(threeDir, path.slice(7))) })
  if (path === '/glb/avatar.glb') return route.fulfill({ contentType: 'model/gltf-binary', body: readFileSync(avatarFile) })
  if (path.startsWith('/glb/')) return route.fulfill({ contentType: 'model/gltf-binary', body: readFileSync(join(glbDir, path.slice(5))) })
  return route.fulfill({ status: 404, body: '' })
})
await tab.goto('http://sheet.local/')
await tab.waitForFunction(() => document.title === 'done', null, { timeout: 120_000 })
await tab.locator('#c').screenshot({ path: out })
await browser.close()
console.log('wrote', out)
