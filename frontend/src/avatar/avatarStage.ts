// The live avatar: the three.js set (stageScene.ts), the avatar GLB, the
// clip player and a frame loop that only runs while the stage is visible,
// sized, on-screen and allowed to move. Created and disposed by
// components/AvatarCanvas.tsx; only the lazily loaded avatar chunk imports it.
//
// After every frame it draws, the canvas says what that frame shows: the
// clip's data attributes (clipDataset) and data-frames, the frames drawn so
// far. Tests wait on these instead of guessing how long a clip takes.

import type { AnimationClip, Object3D, SkinnedMesh } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { ClipPlayer, clipDataset, type ClipRequest } from './clipPlayer'
import { FrameLoop } from './frameLoop'
import { StageScene, disposeTree } from './stageScene'

export { NoWebGLError } from './stageScene'
export type { ClipRequest } from './clipPlayer'

export class AvatarStage {
  private readonly set: StageScene
  private readonly loop: FrameLoop
  private readonly loader = new GLTFLoader()
  private readonly cleanups: (() => void)[] = []
  private player: ClipPlayer | null = null
  private wanted: ClipRequest | null = null
  private still = false
  private disposed = false
  private frames = 0

  /** Puts a canvas into host; throws NoWebGLError without WebGL2. */
  constructor(host: HTMLElement) {
    this.set = new StageScene(getComputedStyle(host).getPropertyValue('--accent'))
    host.appendChild(this.set.canvas)
    this.loop = new FrameLoop((dt) => this.frame(dt))
    this.loop.setPaused('loading', true)
    this.loop.setPaused('collapsed', true)
    this.watch(host)
  }

  /** Loads the avatar GLB and starts the clip asked for so far. Rejects when it cannot be loaded. */
  async loadAvatar(url: string): Promise<void> {
    const gltf = await this.loader.loadAsync(url)
    if (this.disposed) {
      disposeTree(gltf.scene)
      return
    }
    const root: Object3D = gltf.scene
    // Bounds are those of the rest pose; a raised arm must not be culled.
    root.traverse((o) => {
      if ((o as Partial<SkinnedMesh>).isSkinnedMesh === true) o.frustumCulled = false
    })
    this.set.add(root)
    this.player = new ClipPlayer(root, (clipURL) => this.loadClip(clipURL))
    if (this.wanted !== null) await this.apply(this.wanted)
    this.loop.setPaused('loading', false)
    this.draw()
  }

  /** Plays (or, still, poses) a clip; the newest request wins. */
  show(req: ClipRequest, still: boolean): void {
    this.wanted = req
    this.still = still
    this.loop.setPaused('still', still)
    if (this.player !== null) void this.apply(req)
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const off of this.cleanups) off()
    this.loop.dispose()
    this.player?.dispose()
    this.set.dispose()
  }

  private async apply(req: ClipRequest): Promise<void> {
    const player = this.player
    if (player === null) return
    try {
      const applied = await player.show(req, this.still)
      if (applied && !this.disposed && !this.loop.running) this.draw()
    } catch (err) {
      console.warn('wisp avatar: cannot play emote clip', req.url, err)
    }
  }

  private async loadClip(url: string): Promise<AnimationClip> {
    const gltf = await this.loader.loadAsync(url)
    disposeTree(gltf.scene)
    const clip = gltf.animations[0]
    if (clip === undefined) throw new Error(`${url} has no animation`)
    return clip
  }

  private frame(dt: number): void {
    this.player?.update(dt)
    this.draw()
  }

  /** Renders the scene, then labels the canvas with what this frame shows. */
  private draw(): void {
    if (!this.set.render()) return
    this.frames++
    Object.assign(this.set.canvas.dataset, clipDataset(this.player?.shown ?? null), { frames: String(this.frames) })
  }

  /** Pauses the loop while the page is hidden, the stage is off-screen or has no size. */
  private watch(host: HTMLElement): void {
    const resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect
      if (box === undefined) return
      this.set.setSize(box.width, box.height, window.devicePixelRatio)
      this.loop.setPaused('collapsed', !this.set.hasSize)
      if (!this.loop.running) this.draw()
    })
    resize.observe(host)
    const onScreen = new IntersectionObserver((entries) => {
      const entry = entries[entries.length - 1]
      if (entry !== undefined) this.loop.setPaused('offscreen', !entry.isIntersecting)
    })
    onScreen.observe(host)
    const onVisibility = () => this.loop.setPaused('hidden', document.hidden)
    onVisibility()
    document.addEventListener('visibilitychange', onVisibility)
    this.cleanups.push(
      () => resize.disconnect(),
      () => onScreen.disconnect(),
      () => document.removeEventListener('visibilitychange', onVisibility),
    )
  }
}
