import type { ExpressionName } from '../api/wire.gen'

// What drives the avatar's face from outside the stage: the loudness of the speech
// playing now (the voice's player sets it; the stage reads it once per drawn frame)
// and the expressions chosen by the agent, the reply's tone or the user.

/** The audio being spoken: its loudness now, 0–1 (smoothed by the player). */
export interface MouthSource {
  level(): number
}

/** An expression to blend in, and how long it holds before fading back to neutral. */
export interface ExpressionCue {
  expression: ExpressionName
  intensity: number
  /** 0: the face's own default hold. */
  durationMs: number
}

type Listener = () => void
type CueListener = (cue: ExpressionCue) => void

/** The one bus between the voice and the face; both sides hold only this. */
export class FaceBus {
  private source: MouthSource | null = null
  private readonly changes = new Set<Listener>()
  private readonly cues = new Set<CueListener>()

  /** Sets the speech now playing (null when it stops): the stage draws at the display's rate while one is set. */
  setMouth(source: MouthSource | null): void {
    if (source === this.source) return
    this.source = source
    for (const fn of this.changes) fn()
  }

  /** The speech now playing, or null. */
  mouth(): MouthSource | null {
    return this.source
  }

  speaking(): boolean {
    return this.source !== null
  }

  /** Calls fn when speech starts or stops; returns the unsubscribe. */
  onSpeakingChange(fn: Listener): () => void {
    this.changes.add(fn)
    return () => this.changes.delete(fn)
  }

  /** Shows an expression on the face (every stage listening). */
  express(cue: ExpressionCue): void {
    for (const fn of this.cues) fn(cue)
  }

  /** Calls fn for every expression cue; returns the unsubscribe. */
  onExpression(fn: CueListener): () => void {
    this.cues.add(fn)
    return () => this.cues.delete(fn)
  }
}

/** The page's bus. */
export const faceBus = new FaceBus()
