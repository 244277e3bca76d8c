// The live avatar: the three.js set (stageScene.ts), the character (the
// built-in GLB or a VRM, models.ts), the clip player, the face (face.ts) and a
// frame loop that draws on demand (renderPolicy.ts): at display rate while an
// emote plays or speech moves the mouth, at a capped rate while idle or the
// face blinks, glances or changes expression, and only when the idle pose has
// visibly moved (poseWatch.ts); nothing while the page is hidden or the stage
// is off screen, collapsed or still. Created and disposed by
// components/AvatarCanvas.tsx; only the lazily loaded avatar chunk imports it.
//
// After every frame it draws, the canvas says what that frame shows: the
// clip's data attributes (clipDataset) and data-frames, the frames drawn so
// far; data-render says how it draws now (display, idle or stopped). The
// labels element (the stage section) gets the face's: data-mouth (the aa
// weight), data-expression and data-blinks. Tests wait on these instead of
// guessing how long a clip takes.

import type { AnimationClip } from 'three'
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js'
import { IDLE_EMOTE_ID } from '../api/emoteTypes'
import { ClipPlayer, clipDataset, type ClipRequest } from './clipPlayer'
import { FaceController, type FaceStep } from './face'
import { faceBus as pageFaceBus, type FaceBus } from './faceBus'
import { FrameLoop, browserScheduler, type Frame, type FrameScheduler } from './frameLoop'
import { loadBuiltin, type AvatarKind, type StageModel } from './models'
import { PoseWatch } from './poseWatch'
import { TYPING_HOLD_MS } from './renderPolicy'
import { StageScene, disposeTree } from './stageScene'

export { NoWebGLError } from './stageScene'
export type { ClipRequest } from './clipPlayer'
export type { AvatarKind } from './models'

export interface StageOptions {
  /** Where data-mouth, data-expression and data-blinks go (the stage section); the host by default. */
  labels?: HTMLElement
  /** The page's face bus by default. */
  bus?: FaceBus
  scheduler?: FrameScheduler
}

export class AvatarStage {
  private readonly set: StageScene
  private readonly loop: FrameLoop
  private readonly loader = new GLTFLoader()
  private readonly labels: HTMLElement
  private readonly bus: FaceBus
  private readonly scheduler: FrameScheduler
  private readonly cleanups: (() => void)[] = []
  private model: StageModel | null = null
  private player: ClipPlayer | null = null
  private pose: PoseWatch | null = null
  private face: FaceController | null = null
  private faceTimer: { at: number; handle: number } | null = null
  private wanted: ClipRequest | null = null
  private still = false
  private disposed = false
  private frames = 0
  /** Seconds since the last drawn frame (what a VRM's spring bones step over). */
  private sinceDrawn = 0

  /** Puts a canvas into host; throws NoWebGLError without WebGL2. */
  constructor(host: HTMLElement, options: StageOptions = {}) {
    this.labels = options.labels ?? host
    this.bus = options.bus ?? pageFaceBus
    this.scheduler = options.scheduler ?? browserScheduler
    this.set = new StageScene(getComputedStyle(host).getPropertyValue('--accent'))
    host.appendChild(this.set.canvas)
    this.loop = new FrameLoop((frame) => this.frame(frame), {
      scheduler: this.scheduler,
      onRate: (rate) => (this.set.canvas.dataset.render = rate),
    })
    this.set.canvas.dataset.render = this.loop.rate
    this.loop.setPaused('loading', true)
    this.loop.setPaused('collapsed', true)
    this.watch(host)
    this.listen()
  }

  /** The kind of character shown; null before one loaded. */
  get kind(): AvatarKind | null {
    return this.model?.kind ?? null
  }

  /** The VRM's title ('' for the built-in one or a VRM without one). */
  get title(): string {
    return this.model?.title ?? ''
  }

  /**
   * Loads the character (the built-in GLB, or a VRM) and starts the clip
   * asked for so far. Rejects when it cannot be loaded; the stage then stays
   * empty and another load may follow (the built-in one after a VRM failed).
   */
  async loadAvatar(url: string, kind: AvatarKind = 'builtin'): Promise<void> {
    if (this.model !== null) throw new Error('the stage already shows a character')
    const model = kind === 'vrm' ? await loadVRMModel(url) : await loadBuiltin(this.loader, url)
    if (this.disposed || this.model !== null) {
      model.dispose()
      return
    }
    this.model = model
    this.set.add(model.root)
    this.player = new ClipPlayer(model.root, async (clipURL) => model.adapt(await this.loadClip(clipURL)))
    this.pose = new PoseWatch(model.root)
    this.face = new FaceController(model.face, { now: () => this.scheduler.now(), reduced: this.still })
    if (this.wanted !== null) await this.apply(this.wanted)
    this.loop.setPaused('loading', false)
    if (!this.loop.running) this.draw() // held (still, off screen): the pose is drawn once anyway
  }

  /** Plays (or, still, poses) a clip; the newest request wins. */
  show(req: ClipRequest, still: boolean): void {
    this.wanted = req
    this.still = still
    this.face?.setReduced(still)
    this.loop.setPaused('still', still)
    this.loop.setPlaying(req.id !== IDLE_EMOTE_ID)
    if (this.player !== null) void this.apply(req)
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    for (const off of this.cleanups) off()
    this.clearFaceTimer()
    this.loop.dispose()
    this.player?.dispose()
    this.model?.dispose()
    this.set.dispose()
  }

  /** Speech starting or stopping, and expression cues, move the face. */
  private listen(): void {
    this.cleanups.push(
      this.bus.onSpeakingChange(() => this.faceChanged()),
      this.bus.onExpression((cue) => {
        this.face?.express(cue)
        this.faceChanged()
      }),
    )
  }

  /** Something moves the face: frames follow (or, with a still pose, one is drawn now). */
  private faceChanged(): void {
    if (this.face === null) return
    this.loop.setFace(this.bus.speaking() ? 'speaking' : 'moving')
    if (!this.loop.running && this.still && !document.hidden) this.drawFaceOnly()
  }

  /** A still pose's face changed (a mouth closing, an expression switching): one frame, the pose as it is. */
  private drawFaceOnly(): void {
    this.loop.setFace(this.stepFace().activity)
    this.draw()
  }

  /** Advances the face to now; at rest, wakes it when it next changes by itself. */
  private stepFace(): FaceStep {
    const face = this.face
    if (face === null) return { activity: 'rest', changed: false }
    const source = this.bus.mouth()
    const step = face.update(source === null ? null : source.level())
    if (step.activity === 'rest') this.armFaceTimer(face.nextChangeAt())
    else this.clearFaceTimer()
    return step
  }

  /** Wakes the face when it next moves by itself (a blink, a glance, an expression's fade). */
  private armFaceTimer(at: number): void {
    if (this.faceTimer?.at === at) return
    this.clearFaceTimer()
    if (!Number.isFinite(at)) return
    const handle = this.scheduler.after(Math.max(0, at - this.scheduler.now()) + 1, () => {
      this.faceTimer = null
      this.faceChanged()
    })
    this.faceTimer = { at, handle }
  }

  private clearFaceTimer(): void {
    if (this.faceTimer !== null) this.scheduler.clear(this.faceTimer.handle)
    this.faceTimer = null
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

  /**
   * Advances the animation and the face and draws, unless an idle frame
   * finds the face unchanged and at rest and the pose not visibly moved.
   */
  private frame({ dt, idle }: Frame): boolean {
    this.sinceDrawn += dt
    if (!this.still) this.player?.update(dt) // a still pose stays (speech still moves the mouth)
    this.model?.pose()
    const face = this.stepFace()
    this.loop.setFace(face.activity)
    const still = idle && !face.changed && face.activity === 'rest'
    if (still && this.pose !== null && this.set.hasSize && !this.pose.movedFromDrawn(this.marks())) {
      return false
    }
    this.draw()
    return true
  }

  private marks(): Float32Array {
    const size = this.set.drawingSize
    return this.pose?.sample(this.set.camera, size.width, size.height) ?? new Float32Array()
  }

  /** Renders the scene, then labels the canvas (and the face's labels) with what this frame shows. */
  private draw(): void {
    if (!this.set.hasSize) return
    this.model?.beforeDraw(this.sinceDrawn)
    this.sinceDrawn = 0
    if (!this.set.render()) return
    this.pose?.markDrawn(this.marks())
    this.frames++
    Object.assign(this.set.canvas.dataset, clipDataset(this.player?.shown ?? null), { frames: String(this.frames) })
    const face = this.face?.state
    if (face !== undefined) {
      Object.assign(this.labels.dataset, { mouth: face.mouth.toFixed(2), expression: face.expression, blinks: String(face.blinks) })
    }
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

/** Loads a VRM, fetching three-vrm's chunk first. */
async function loadVRMModel(url: string): Promise<StageModel> {
  const { loadVRM, vrmLoader } = await import('./vrmModel')
  return loadVRM(vrmLoader(), url)
}

/** A field the user types text into. */
function isTextField(target: EventTarget | null): boolean {
  return target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || (target instanceof HTMLElement && target.isContentEditable)
}
