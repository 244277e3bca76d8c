// The composer's microphone (docs/voice.md, "In the window"): a click starts
// push-to-talk and the next click stops it (so does releasing Ctrl+Space when
// held); the hands-free switch keeps listening and sends each utterance. While
// the mic is on, a red dot, "Recording" (or "Listening") and the level show it.
// Shown only when a transcription server is set (Settings → Voice).

import { useEffect } from 'react'
import { useStore } from '../state/store'
import type { Voice } from '../voice/voice'
import { canListen } from '../voice/voice'
import { listenPushToTalk, PUSH_TO_TALK_KEYS } from '../voice/pushToTalk'

function MicIcon() {
  return (
    <svg className="icon" viewBox="0 0 24 24" width="14" height="14" aria-hidden="true" focusable="false">
      <path
        d="M12 3a3 3 0 0 0-3 3v6a3 3 0 0 0 6 0V6a3 3 0 0 0-3-3zM5 11a7 7 0 0 0 14 0M12 18v3"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  )
}

export function MicButton({ voice, disabled }: { voice: Voice; disabled: boolean }) {
  const { mic } = voice
  const config = useStore(voice.config, (c) => c.value)
  const s = useStore(mic.state)
  const usable = canListen(config) && !disabled

  useEffect(() => {
    if (!usable) return
    return listenPushToTalk(window, {
      start: () => void mic.start(false),
      stop: () => void mic.stop(),
      usable: () => !mic.state.get().handsFree,
    })
  }, [mic, usable])

  if (!canListen(config)) return null
  const pushOn = s.recording && !s.handsFree
  return (
    <div className="mic" data-testid="mic-area" data-recording={s.recording ? (s.handsFree ? 'hands-free' : 'push') : 'off'}>
      <button
        type="button"
        className={`icon-button mic-button${pushOn ? ' on' : ''}`}
        data-testid="mic"
        aria-label={pushOn ? 'Stop recording' : 'Speak a message'}
        aria-pressed={pushOn}
        title={pushOn ? 'Stop and transcribe' : `Speak a message (click, or hold ${PUSH_TO_TALK_KEYS})`}
        disabled={disabled || s.handsFree}
        onClick={mic.toggle}
      >
        <MicIcon />
      </button>
      <button
        type="button"
        className={`mic-hands-free${s.handsFree ? ' on' : ''}`}
        data-testid="hands-free"
        aria-pressed={s.handsFree}
        title={s.handsFree ? 'Stop listening' : 'Listen hands-free: what you say is sent when you pause'}
        disabled={disabled}
        onClick={() => mic.setHandsFree(!s.handsFree)}
      >
        {s.handsFree ? 'Listening' : 'Hands-free'}
      </button>
      {s.recording ? (
        <span className="mic-indicator" role="status" data-testid="mic-indicator">
          <span className="mic-dot" aria-hidden="true" />
          {s.handsFree ? 'Listening' : 'Recording'}
          <span className="mic-meter" aria-hidden="true">
            <span className="mic-meter-fill" data-testid="mic-level" style={{ transform: `scaleX(${Math.max(0.02, s.level).toFixed(2)})` }} />
          </span>
        </span>
      ) : s.transcribing > 0 ? (
        <span className="mic-indicator mic-busy" role="status" data-testid="mic-transcribing">
          Transcribing…
        </span>
      ) : null}
      {s.error !== null ? (
        <span className="mic-error" role="alert" data-testid="mic-error">
          {s.error}
        </span>
      ) : null}
    </div>
  )
}
