// Plays emote clips on the avatar: loads (once) each clip GLB, crossfades
// from the current action to the next, and for reduced motion poses the
// avatar still instead (the clip sampled at its middle; idle at its start).
// It also says what it shows (ShownClip), which the stage exposes to the page.

import {
  AnimationMixer,
  LoopOnce,
  LoopRepeat,
  type AnimationAction,
  type AnimationClip,
  type Object3D,
} from 'three'
import { IDLE_EMOTE_ID } from '../api/emoteTypes'

export const CROSSFADE_SECONDS = 0.3

export interface ClipRequest {
  id: string
  /** Absolute URL of the clip GLB. */
  url: string
  loop: boolean
  /** Grows with every request; an older one finishing its load late is dropped. */
  seq: number
}

export type ClipLoader = (url: string) => Promise<AnimationClip>

/** The clip the player shows now. */
export interface ShownClip {
  id: string
  /** The seq of the request it answers. */
  seq: number
  /**
   * Seconds into the clip: for an animation, those played since it started (a
   * loop's grows past its duration); for a still pose, the time sampled.
   */
  time: number
  /** The clip's length in seconds. */
  duration: number
  /** A still pose (reduced motion) rather than an animation. */
  still: boolean
}

/**
 * The shown clip as data attributes (data-clip, data-clip-seq, data-clip-time,
 * data-clip-duration, data-clip-mode), so a page or a test can tell what the
 * avatar shows and how far into the clip it is. Empty before any clip is shown.
 */
export function clipDataset(shown: ShownClip | null): Record<string, string> {
  if (shown === null) return {}
  return {
    clip: shown.id,
    clipSeq: String(shown.seq),
    clipTime: shown.time.toFixed(3),
    clipDuration: shown.duration.toFixed(3),
    clipMode: shown.still ? 'still' : 'animated',
  }
}

export class ClipPlayer {
  private readonly mixer: AnimationMixer
  private readonly load: ClipLoader
  private readonly clips = new Map<string, Promise<AnimationClip>>()
  private readonly clipsLoaded: AnimationClip[] = []
  private current: AnimationAction | null = null
  private latest = -1
  private showing: ShownClip | null = null

  constructor(root: Object3D, load: ClipLoader) {
    this.mixer = new AnimationMixer(root)
    this.load = load
  }

  /**
   * Shows the request once its clip is loaded: a crossfade when animated, a
   * still pose when `still`. Resolves true when applied, false when a newer
   * request came first; rejects when the clip cannot be loaded.
   */
  async show(req: ClipRequest, still: boolean): Promise<boolean> {
    this.latest = req.seq
    const clip = await this.clip(req.url)
    if (req.seq !== this.latest) return false
    const time = still && req.id !== IDLE_EMOTE_ID ? clip.duration / 2 : 0
    if (still) this.pose(clip, time)
    else this.crossfade(clip, req.loop)
    this.showing = { id: req.id, seq: req.seq, time, duration: clip.duration, still }
    return true
  }

  /** What is shown now; null until the first request is applied. */
  get shown(): ShownClip | null {
    return this.showing === null ? null : { ...this.showing }
  }

  /** Advances the animation by dt seconds. */
  update(dt: number): void {
    this.mixer.update(dt)
    if (this.showing !== null) this.showing.time += dt
  }

  dispose(): void {
    this.mixer.stopAllAction()
    for (const clip of this.clipsLoaded) this.mixer.uncacheClip(clip)
    this.mixer.uncacheRoot(this.mixer.getRoot())
    this.clips.clear()
  }

  private clip(url: string): Promise<AnimationClip> {
    let pending = this.clips.get(url)
    if (pending === undefined) {
      pending = this.load(url).then((clip) => {
        this.clipsLoaded.push(clip)
        return clip
      })
      // A failed load is not cached, so the next request tries again.
      pending.catch(() => this.clips.delete(url))
      this.clips.set(url, pending)
    }
    return pending
  }

  private crossfade(clip: AnimationClip, loop: boolean): void {
    const next = this.mixer.clipAction(clip)
    const prev = this.current
    next.reset()
    next.setLoop(loop ? LoopRepeat : LoopOnce, Infinity)
    next.clampWhenFinished = !loop
    next.setEffectiveWeight(1)
    next.play()
    // A finished one-shot still holds its last pose (clamped), so it fades out like a running one.
    if (prev !== null && prev !== next) prev.crossFadeTo(next, CROSSFADE_SECONDS, false)
    this.current = next
  }

  private pose(clip: AnimationClip, time: number): void {
    this.mixer.stopAllAction()
    const action = this.mixer.clipAction(clip)
    action.reset()
    action.setLoop(LoopOnce, 1)
    action.clampWhenFinished = true
    action.play()
    this.mixer.setTime(time)
    this.current = action
  }
}
