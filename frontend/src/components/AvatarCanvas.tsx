// The three.js view of the avatar (loaded lazily with three.js, see
// AvatarPanel.tsx). It mounts an AvatarStage, loads the character (a VRM, or
// the built-in one when there is none or it cannot be loaded), follows the
// emote playing now and reports what it could show.

import { useEffect, useRef } from 'react'
import { AvatarStage, NoWebGLError, type AvatarKind, type ClipRequest } from '../avatar/avatarStage'

export type CanvasOutcome =
  | {
      stage: 'ready'
      /** The character shown. */
      kind: AvatarKind
      /** Why the VRM asked for is not the one shown ("This VRM could not be loaded: …"). */
      error?: string
    }
  | { stage: 'fallback' | 'error'; message: string }

interface Props {
  /** The character to show: its kind and absolute URL. */
  avatar: { kind: AvatarKind; url: string }
  /** Absolute URL of the built-in avatar GLB, shown when a VRM cannot be. */
  builtinURL: string
  /** The clip to show (absolute URL), by the playback machine. */
  clip: ClipRequest
  /** prefers-reduced-motion: still poses instead of animation. */
  still: boolean
  onOutcome(outcome: CanvasOutcome): void
}

export default function AvatarCanvas({ avatar, builtinURL, clip, still, onOutcome }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const stageRef = useRef<AvatarStage | null>(null)
  const outcome = useRef(onOutcome)
  outcome.current = onOutcome
  const latest = useRef({ clip, still })
  latest.current = { clip, still }
  const { kind, url } = avatar

  useEffect(() => {
    const el = host.current
    if (el === null) return
    let stage: AvatarStage
    try {
      // The face's data attributes go on the stage section, beside data-emote.
      stage = new AvatarStage(el, { labels: el.parentElement ?? el })
    } catch (err) {
      if (err instanceof NoWebGLError) {
        outcome.current({ stage: 'fallback', message: 'this browser has WebGL turned off' })
      } else {
        outcome.current({ stage: 'error', message: `the 3D view failed: ${errorText(err)}` })
      }
      return
    }
    stageRef.current = stage
    stage.show(latest.current.clip, latest.current.still)
    let live = true
    const load = async (): Promise<CanvasOutcome> => {
      let vrmError: string | undefined
      if (kind === 'vrm') {
        try {
          await stage.loadAvatar(url, 'vrm')
          return { stage: 'ready', kind: 'vrm' }
        } catch (err) {
          vrmError = `This VRM could not be loaded: ${errorText(err)}`
          console.warn('wisp avatar:', vrmError)
        }
      }
      try {
        await stage.loadAvatar(kind === 'vrm' ? builtinURL : url, 'builtin')
      } catch (err) {
        return { stage: 'error', message: `could not load the avatar: ${errorText(err)}` }
      }
      return vrmError === undefined ? { stage: 'ready', kind: 'builtin' } : { stage: 'ready', kind: 'builtin', error: vrmError }
    }
    void load().then((o) => {
      if (live) outcome.current(o)
    })
    return () => {
      live = false
      stageRef.current = null
      stage.dispose()
    }
  }, [kind, url, builtinURL])

  useEffect(() => {
    stageRef.current?.show(clip, still)
  }, [clip, still])

  return <div className="avatar-view" ref={host} aria-hidden="true" />
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
