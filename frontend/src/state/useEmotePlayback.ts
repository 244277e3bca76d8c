// The avatar's playback machine (emotePlayback.ts, a Store) fed by the
// page's emote frames, one per mounted avatar.

import { useEffect, useState } from 'react'
import { realClock } from '../api'
import type { EmoteBridge } from './emoteBridge'
import { EmotePlayback, type EmotePlay } from './emotePlayback'
import { useStore } from './store'

export function useEmotePlayback(bridge: EmoteBridge, idleGlb: string | null): EmotePlay {
  const [playback] = useState(() => new EmotePlayback(realClock))

  useEffect(() => {
    const offFrames = bridge.onEmote((msg) => playback.start(msg))
    return () => {
      offFrames()
      // Also cancels a pending return to idle: nothing may fire after unmount.
      playback.stop()
    }
  }, [playback, bridge])

  useEffect(() => {
    if (idleGlb !== null) playback.setIdleGlb(idleGlb)
  }, [playback, idleGlb])

  return useStore(playback)
}
