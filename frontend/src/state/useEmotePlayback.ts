// The avatar's playback machine (emotePlayback.ts) fed by the page's emote
// frames, as React state.

import { useEffect, useState } from 'react'
import { realClock } from '../api'
import type { EmoteBridge } from './emoteBridge'
import { EmotePlayback, type EmotePlay } from './emotePlayback'

export function useEmotePlayback(bridge: EmoteBridge, idleGlb: string | null): EmotePlay {
  const [playback] = useState(() => new EmotePlayback(realClock))
  const [play, setPlay] = useState(playback.current)

  useEffect(() => {
    const offPlay = playback.subscribe(setPlay)
    const offFrames = bridge.onEmote((msg) => playback.start(msg))
    setPlay(playback.current)
    return () => {
      offFrames()
      offPlay()
      // Also cancels a pending return to idle: nothing may fire after unmount.
      playback.stop()
    }
  }, [playback, bridge])

  useEffect(() => {
    if (idleGlb !== null) playback.setIdleGlb(idleGlb)
  }, [playback, idleGlb])

  return play
}
