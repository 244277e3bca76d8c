// The three.js view of the avatar (loaded lazily with three.js, see
// AvatarPanel.tsx). It mounts an AvatarStage, follows the emote playing now
// and reports whether it could show the avatar.

import { useEffect, useRef } from 'react'
import { AvatarStage, NoWebGLError, type ClipRequest } from '../avatar/avatarStage'

export type CanvasOutcome = { stage: 'ready' } | { stage: 'fallback' | 'error'; message: string }

interface Props {
  /** Absolute URL of the avatar GLB. */
  avatarURL: string
  /** The clip to show (absolute URL), by the playback machine. */
  clip: ClipRequest
  /** prefers-reduced-motion: still poses instead of animation. */
  still: boolean
  onOutcome(outcome: CanvasOutcome): void
}

export default function AvatarCanvas({ avatarURL, clip, still, onOutcome }: Props) {
  const host = useRef<HTMLDivElement>(null)
  const stageRef = useRef<AvatarStage | null>(null)
  const outcome = useRef(onOutcome)
  outcome.current = onOutcome
  const latest = useRef({ clip, still })
  latest.current = { clip, still }

  useEffect(() => {
    const el = host.current
    if (el === null) return
    let stage: AvatarStage
    try {
      stage = new AvatarStage(el)
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
    stage.loadAvatar(avatarURL).then(
      () => {
        if (live) outcome.current({ stage: 'ready' })
      },
      (err: unknown) => {
        if (live) outcome.current({ stage: 'error', message: `could not load the avatar: ${errorText(err)}` })
      },
    )
    return () => {
      live = false
      stageRef.current = null
      stage.dispose()
    }
  }, [avatarURL])

  useEffect(() => {
    stageRef.current?.show(clip, still)
  }, [clip, still])

  return <div className="avatar-view" ref={host} aria-hidden="true" />
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}
