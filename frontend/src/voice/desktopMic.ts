// The microphone in the desktop window: WebKitGTK under Wails does not grant
// getUserMedia, so Go captures (docs/voice.md, "Listening in the desktop
// window") and the page drives it through the Wails bindings: MicStart
// (handsFree), MicStop → the push-to-talk take's text, and the events
// mic:level {level}, mic:state {on, handsFree, error?}, mic:transcript {text}
// (hands-free utterances) and mic:speech-start {} (barge-in).

import type { MicBackend, MicEvents } from './micCapture'

/** The bindings app/desktop/mic.go exposes on Desktop. */
export interface DesktopMicBindings {
  MicStart(handsFree: boolean): Promise<void>
  MicStop(): Promise<string>
}

/** What the page uses of Wails' runtime: EventsOn returns the function that stops listening. */
export interface WailsEvents {
  EventsOn(name: string, fn: (data: unknown) => void): () => void
}

interface WailsWindow {
  go?: { desktop?: { Desktop?: Partial<DesktopMicBindings> } }
  runtime?: Partial<WailsEvents>
}

/** The desktop's mic bindings when this page runs in the desktop window with them, else null. */
export function desktopMicBindings(w: unknown = typeof window === 'undefined' ? undefined : window): { mic: DesktopMicBindings; events: WailsEvents } | null {
  const win = w as WailsWindow | undefined
  const d = win?.go?.desktop?.Desktop
  const rt = win?.runtime
  if (typeof d?.MicStart !== 'function' || typeof d.MicStop !== 'function' || typeof rt?.EventsOn !== 'function') return null
  return {
    mic: { MicStart: d.MicStart.bind(d), MicStop: d.MicStop.bind(d) },
    events: { EventsOn: rt.EventsOn.bind(rt) },
  }
}

const num = (v: unknown, key: string): number | null => {
  const x = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined
  return typeof x === 'number' && Number.isFinite(x) ? x : null
}
const str = (v: unknown, key: string): string | null => {
  const x = typeof v === 'object' && v !== null ? (v as Record<string, unknown>)[key] : undefined
  return typeof x === 'string' ? x : null
}

/** Wails sends an event's arguments as they were emitted: one object, or an array of them. */
function first(data: unknown): unknown {
  return Array.isArray(data) ? data[0] : data
}

export class DesktopMic implements MicBackend {
  private offs: (() => void)[] = []
  private on = false

  constructor(
    private readonly mic: DesktopMicBindings,
    private readonly events: WailsEvents,
  ) {}

  async start(handsFree: boolean, ev: MicEvents): Promise<void> {
    if (this.on) return
    this.unlisten()
    this.offs = [
      this.events.EventsOn('mic:level', (d) => {
        const level = num(first(d), 'level')
        if (level !== null) ev.level(Math.max(0, Math.min(1, level)))
      }),
      this.events.EventsOn('mic:speech-start', () => ev.speechStart()),
      this.events.EventsOn('mic:transcript', (d) => {
        const text = str(first(d), 'text')
        if (text !== null && text.trim() !== '') ev.utterance(text)
      }),
      this.events.EventsOn('mic:state', (d) => {
        const s = first(d)
        const on = typeof s === 'object' && s !== null && (s as Record<string, unknown>).on === true
        const error = str(s, 'error')
        if (on && error !== null && error !== '') ev.problem(error)
        if (on || !this.on) return
        this.on = false
        this.unlisten()
        ev.ended(error !== null && error !== '' ? error : null)
      }),
    ]
    try {
      await this.mic.MicStart(handsFree)
    } catch (err) {
      this.unlisten()
      throw new Error(err instanceof Error ? err.message : String(err))
    }
    this.on = true
  }

  async stop(): Promise<Blob | string | null> {
    if (!this.on) return null
    this.on = false
    try {
      const text = await this.mic.MicStop()
      return text === '' ? null : text
    } catch (err) {
      throw new Error(err instanceof Error ? err.message : String(err))
    } finally {
      this.unlisten()
    }
  }

  private unlisten(): void {
    for (const off of this.offs) off()
    this.offs = []
  }
}
