// The live avatar: the three.js set (stageScene.ts), the avatar GLB, the
// clip player and a frame loop that draws on demand (renderPolicy.ts): at
// display rate while an emote plays, at a capped rate while idle, and only
// when the idle pose has visibly moved (poseWatch.ts); nothing while the page
// is hidden or the stage is off screen, collapsed or still. Created and
// disposed by components/AvatarCanvas.tsx; only the lazily loaded avatar
// chunk imports it.
//
// After every frame it draws, the canvas says what that frame shows: the
// clip's data attributes (clipDataset) and data-frames, the frames drawn so
// far; data-render says how it draws now (display, idle or stopped). Tests
// wait on these instead of guessing how long a clip takes.

import type { AnimationClip, Object3D, SkinnedMesh } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { IDLE_EMOTE_ID } from '../api/emoteTypes'
import { ClipPlayer, clipDataset, type ClipRequest } from './clipPlayer'
import { FrameLoop, type Frame } from './frameLoop'
import { PoseWatch } from './poseWatch'
import { TYPING_HOLD_MS } from './renderPolicy'
import { StageScene, disposeTree } from './stageScene'

export { NoWebGLError } from './stageScene'
export type { ClipRequest } from './clipPlayer'

export class AvatarStage {
  private readonly set: StageScene
  private readonly loop: FrameLoop
  private readonly loader = new GLTFLoader()
  private readonly cleanups: (() => void)[] = []
  private player: ClipPlayer | null = null
  private pose: PoseWatch | null = null
  private wanted: ClipRequest | null = null
  private still = false
  private disposed = false
  private frames = 0

  /** Puts a canvas into host; throws NoWebGLError without WebGL2. */
  constructor(host: HTMLElement) {
    this.set = new StageScene(getComputedStyle(host).getPropertyValue('--accent'))
    host.appendChild(this.set.canvas)
    this.loop = new FrameLoop((frame) => this.frame(frame), {
      onRate: (rate) => (this.set.canvas.dataset.render = rate),
    })
    this.set.canvas.dataset.render = this.loop.rate
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
    this.pose = new PoseWatch(root)
    if (this.wanted !== null) await this.apply(this.wanted)
    this.loop.setPaused('loading', false)
    if (!this.loop.running) this.draw() // held (still, off screen): the pose is drawn once anyway
  }

  /** Plays (or, still, poses) a clip; the newest request wins. */
  show(req: ClipRequest, still: boolean): void {
    this.wanted = req
    this.still = still
    this.loop.setPaused('still', still)
    this.loop.setPlaying(req.id !== IDLE_EMOTE_ID)
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
      if (!applied || this.disposed) return
      // The new clip shows at once; a held loop (still, off screen) draws its pose once.
      this.loop.wake()
      if (!this.loop.running) this.draw()
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

  /** Advances the animation and draws, unless an idle frame finds the pose has not visibly moved. */
  private frame({ dt, idle }: Frame): boolean {
    this.player?.update(dt)
    if (idle && this.pose !== null && this.set.hasSize && !this.pose.movedFromDrawn(this.marks())) return false
    this.draw()
    return true
  }

  private marks(): Float32Array {
    const size = this.set.drawingSize
    return this.pose?.sample(this.set.camera, size.width, size.height) ?? new Float32Array()
  }

  /** Renders the scene, then labels the canvas with what this frame shows. */
  private draw(): void {
    if (!this.set.render()) return
    this.pose?.markDrawn(this.marks())
    this.frames++
    Object.assign(this.set.canvas.dataset, clipDataset(this.player?.shown ?? null), { frames: String(this.frames) })
  }

  /**
   * Pauses the loop while the page is hidden, the stage is off-screen or has no
   * size. In the desktop window, WebKitGTK marks the page hidden (and fires
   * visibilitychange) when the window is minimised or unmapped.
   */
  private watch(host: HTMLElement): void {
    const resize = new ResizeObserver((entries) => {
      const box = entries[entries.length - 1]?.contentRect
      if (box === undefined) return
      this.set.setSize(box.width, box.height, window.devicePixelRatio)
      // Resizing clears the canvas: draw at once (coming out of zero size does
      // so by itself), and once even when held (a still pose).
      const collapsed = !this.set.hasSize
      if (collapsed !== this.loop.isPaused('collapsed')) this.loop.setPaused('collapsed', collapsed)
      else this.loop.wake()
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
    const typing = this.watchTyping()
    this.cleanups.push(
      () => resize.disconnect(),
      () => onScreen.disconnect(),
      () => document.removeEventListener('visibilitychange', onVisibility),
      typing,
    )
  }

  /** Holds the idle animation while the user types in a text field; returns its cleanup. */
  private watchTyping(): () => void {
    let timer: number | undefined
    const onKey = (e: KeyboardEvent) => {
      if (!isTextField(e.target)) return
      this.loop.setTyping(true)
      window.clearTimeout(timer)
      timer = window.setTimeout(() => this.loop.setTyping(false), TYPING_HOLD_MS)
    }
    document.addEventListener('keydown', onKey, { capture: true, passive: true })
    return () => {
      window.clearTimeout(timer)
      document.removeEventListener('keydown', onKey, { capture: true })
    }
  }
}

/** A field the user types text into. */
function isTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || (target instanceof HTMLElement && target.isContentEditable)
}
