// When the avatar draws its next frame: the whole policy, as one pure
// function of what the stage knows now. No timers, no DOM, no three.js; the
// frame loop (frameLoop.ts) asks it after every frame and whenever an input
// changes, and does what it says.
//
//   - nothing while the page is hidden, or the stage is off screen, has no
//     size or has nothing to animate (not loaded);
//   - with a still pose (reduced motion), nothing unless speech plays: then
//     every display refresh, for the mouth;
//   - one frame at once when drawing (re)starts: shown again, resized, a new clip;
//   - every display refresh while an emote plays, and for SETTLE_MS after it
//     ends, so the crossfade back to idle is smooth; and while speech plays
//     (the mouth follows it), even while the user types;
//   - while the face moves by itself (an expression blending), or has just
//     stepped (a blink, a glance: the stage sets it moving for one frame),
//     frames at the idle rate, each drawn, until it rests;
//   - nothing while the user types (the idle pose holds until TYPING_HOLD_MS
//     after the last key): an idle frame drawn as a key lands delays that key's
//     paint (a software-rendered frame took 20-30 ms), and idle motion is not
//     worth a late letter;
//   - otherwise (idle) at most IDLE_FPS frames a second; and while the stage
//     holds the idle pose still (the last idle frame found it had not visibly
//     moved, so drew nothing), it looks again HOLD_CHECK_FPS times a second.

import type { FaceActivity } from './face'

/** How long after the user's last key in a text field the idle pose holds. */
export const TYPING_HOLD_MS = 800

/** The idle animation's frame rate cap. */
export const IDLE_FPS = 15

/** How often a held idle pose is looked at again: the idle motion is slow, and each look wakes the page. */
export const HOLD_CHECK_FPS = 5

/**
 * How long after an emote ends frames still come at display rate: the
 * crossfade back to idle (clipPlayer's CROSSFADE_SECONDS, 0.3 s) and a margin.
 */
export const SETTLE_MS = 600

export interface RenderInputs {
  /** An emote (anything but idle) is playing. */
  playing: boolean
  /** Milliseconds since the last emote ended (Infinity when none has). */
  sinceEmoteEnded: number
  /** The page is visible (document.visibilityState === 'visible'). */
  visible: boolean
  /**
   * The stage is on screen with a size, and has something to animate (the
   * avatar is loaded, the pose is not a still one).
   */
  onScreen: boolean
  /** Milliseconds since the last frame; null when none was drawn since drawing (re)started. */
  sinceLastFrame: number | null
  /** The last frame was an idle one that drew nothing: the pose is held still. */
  holding: boolean
  /** The user is typing in a text field (a key within TYPING_HOLD_MS). */
  typing: boolean
  /** The pose is a still one (reduced motion): only speech moves the stage. */
  still: boolean
  /** What the face does (face.ts): speaking, moving by itself, or at rest. */
  face: FaceActivity
}

/** What to do about the next frame. */
export type NextFrame =
  /** Draw nothing until an input changes. */
  | { kind: 'none' }
  /** Draw one frame at once. */
  | { kind: 'now' }
  /** Draw at the next display refresh (requestAnimationFrame). */
  | { kind: 'display' }
  /** Draw in ms milliseconds (a timer: the display's own rate is not wanted). */
  | { kind: 'after'; ms: number }

/** How fast the stage is drawing, as the frame loop reports it. */
export type RenderRate = 'display' | 'idle' | 'stopped'

export function nextFrame(inputs: RenderInputs, idleFps = IDLE_FPS): NextFrame {
  if (!inputs.visible || !inputs.onScreen) return { kind: 'none' }
  if (inputs.still && inputs.face !== 'speaking') return { kind: 'none' }
  if (inputs.sinceLastFrame === null) return { kind: 'now' }
  if (inputs.face === 'speaking') return { kind: 'display' }
  if (inputs.playing || inputs.sinceEmoteEnded < SETTLE_MS) return { kind: 'display' }
  if (inputs.typing) return { kind: 'none' }
  const holding = inputs.holding && inputs.face === 'rest'
  const interval = 1000 / (holding ? Math.min(HOLD_CHECK_FPS, idleFps) : idleFps)
  return { kind: 'after', ms: Math.max(0, interval - inputs.sinceLastFrame) }
}

/** The rate a decision draws at. */
export function rateOf(next: NextFrame): RenderRate {
  switch (next.kind) {
    case 'none':
      return 'stopped'
    case 'after':
      return 'idle'
    default:
      return 'display'
  }
}
