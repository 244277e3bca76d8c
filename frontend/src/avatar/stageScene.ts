// The three.js set: renderer, camera, soft lights and a floor disc with a
// contact shadow. It knows nothing about emotes (clipPlayer.ts) or when to
// draw (avatarStage.ts). Only the lazily loaded avatar chunk imports this.

import {
  CanvasTexture,
  CircleGeometry,
  Color,
  DirectionalLight,
  HemisphereLight,
  Mesh,
  MeshBasicMaterial,
  Object3D,
  PerspectiveCamera,
  Scene,
  SRGBColorSpace,
  WebGLRenderer,
  type Material,
  type Texture,
} from 'three'
import { AVATAR_SUBJECT, cameraDistance } from './framing'

const FOV = 30
const TARGET_Y = AVATAR_SUBJECT.centerY
/** The camera looks slightly down at the character. */
const CAMERA_RISE = 0.3
export const MAX_PIXEL_RATIO = 2

/** WebGL is off or unusable in this browser. */
export class NoWebGLError extends Error {
  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause))
    this.name = 'NoWebGLError'
  }
}

export class StageScene {
  readonly renderer: WebGLRenderer
  readonly scene = new Scene()
  readonly camera = new PerspectiveCamera(FOV, 1, 0.05, 50)
  private width = 0
  private height = 0

  /** Throws NoWebGLError when no WebGL2 context can be created. */
  constructor(accent: string) {
    try {
      this.renderer = new WebGLRenderer({ antialias: true, alpha: true, powerPreference: 'low-power' })
    } catch (err) {
      throw new NoWebGLError(err)
    }
    this.renderer.outputColorSpace = SRGBColorSpace
    this.renderer.setClearColor(0x000000, 0)
    this.renderer.domElement.className = 'avatar-canvas'
    this.scene.add(...lights(), floor(accent))
  }

  get canvas(): HTMLCanvasElement {
    return this.renderer.domElement
  }

  /** The drawing buffer's size in pixels (CSS size × pixel ratio). */
  get drawingSize(): { width: number; height: number } {
    const ratio = this.renderer.getPixelRatio()
    return { width: this.width * ratio, height: this.height * ratio }
  }

  get hasSize(): boolean {
    return this.width > 0 && this.height > 0
  }

  /** CSS pixels; the drawing buffer follows devicePixelRatio, at most 2. */
  setSize(width: number, height: number, devicePixelRatio: number): void {
    this.width = Math.floor(width)
    this.height = Math.floor(height)
    if (!this.hasSize) return
    this.renderer.setPixelRatio(Math.min(devicePixelRatio || 1, MAX_PIXEL_RATIO))
    this.renderer.setSize(this.width, this.height, false)
    const aspect = this.width / this.height
    this.camera.aspect = aspect
    const distance = cameraDistance(FOV, aspect, AVATAR_SUBJECT)
    this.camera.position.set(0, TARGET_Y + CAMERA_RISE, Math.sqrt(distance * distance - CAMERA_RISE * CAMERA_RISE))
    this.camera.lookAt(0, TARGET_Y, 0)
    this.camera.updateProjectionMatrix()
  }

  /** Draws a frame; false when there is nothing to draw on (no size yet). */
  render(): boolean {
    if (!this.hasSize) return false
    this.renderer.render(this.scene, this.camera)
    return true
  }

  add(object: Object3D): void {
    this.scene.add(object)
  }

  /** Frees every geometry, material, texture and the context itself. */
  dispose(): void {
    disposeTree(this.scene)
    this.scene.clear()
    this.renderer.dispose()
    this.renderer.forceContextLoss()
    this.canvas.remove()
  }
}

function lights(): Object3D[] {
  const hemi = new HemisphereLight(0xe6ecff, 0x3b3f48, 1.5)
  const key = new DirectionalLight(0xfff4e8, 2.4)
  key.position.set(1.6, 3.2, 2.6)
  const rim = new DirectionalLight(0x9fb8ff, 1.1)
  rim.position.set(-2.2, 2.4, -2.4)
  return [hemi, key, rim]
}

/** A faint accent-tinted disc and a soft dark blob under the feet. */
function floor(accent: string): Object3D {
  const group = new Object3D()
  group.name = 'floor'
  const disc = new Mesh(
    new CircleGeometry(0.95, 64),
    new MeshBasicMaterial({ color: safeColor(accent), transparent: true, opacity: 0.22, depthWrite: false }),
  )
  disc.material.alphaMap = radialTexture([
    [0, 1],
    [0.75, 0.7],
    [1, 0],
  ])
  const shadow = new Mesh(
    new CircleGeometry(0.42, 48),
    new MeshBasicMaterial({ color: 0x000000, transparent: true, opacity: 0.45, depthWrite: false }),
  )
  shadow.material.alphaMap = radialTexture([
    [0, 1],
    [0.55, 0.5],
    [1, 0],
  ])
  shadow.position.y = 0.002
  for (const m of [disc, shadow]) {
    m.rotation.x = -Math.PI / 2
    m.renderOrder = -1
    group.add(m)
  }
  return group
}

function safeColor(css: string): Color {
  const c = new Color(0x7aa2f7)
  const trimmed = css.trim()
  if (/^#[0-9a-f]{3}([0-9a-f]{3})?$/i.test(trimmed)) c.setStyle(trimmed)
  return c
}

/** A small greyscale radial gradient (white = opaque) for alpha maps. */
function radialTexture(stops: [number, number][]): Texture {
  const size = 64
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = size
  const ctx = canvas.getContext('2d')
  if (ctx !== null) {
    const g = ctx.createRadialGradient(size / 2, size / 2, 0, size / 2, size / 2, size / 2)
    for (const [at, v] of stops) {
      const level = Math.round(v * 255)
      g.addColorStop(at, `rgb(${level},${level},${level})`)
    }
    ctx.fillStyle = g
    ctx.fillRect(0, 0, size, size)
  }
  return new CanvasTexture(canvas)
}

/** Disposes the GPU resources under root (geometries, materials and their textures, skeletons). */
export function disposeTree(root: Object3D): void {
  root.traverse((obj) => {
    const mesh = obj as Partial<Mesh> & { skeleton?: { dispose(): void } }
    mesh.geometry?.dispose()
    const material = mesh.material
    if (material !== undefined) for (const m of Array.isArray(material) ? material : [material]) disposeMaterial(m)
    mesh.skeleton?.dispose()
  })
}

function disposeMaterial(material: Material): void {
  for (const value of Object.values(material)) {
    if (value !== null && typeof value === 'object' && (value as Partial<Texture>).isTexture === true) {
      ;(value as Texture).dispose()
    }
  }
  material.dispose()
}
