// The page's voice: the voice settings this window read (GET /api/config's
// voice: put by the page's ui settings load, reloaded when they change), the reply's speech and the microphone.
// WispPage holds one; the composer, the mic button and Settings → Voice read it.

import type { ApiClient, VoiceConfig } from '../api'
import { LoadStore } from '../state/loadStore'
import { desktopMicBindings, DesktopMic } from './desktopMic'
import { Mic } from './mic'
import { BrowserMic, type MicBackend } from './micCapture'
import { Speech } from './speech'

export interface VoiceDeps {
  api(): ApiClient | null
  /** Shows a notice to the user (a clause that could not be spoken). */
  notice(message: string): void
}

/** Speaking replies is on and a speech server is set. */
export function canSpeak(c: VoiceConfig | null): boolean {
  return c !== null && c.speakReplies && c.tts.baseURL.trim() !== ''
}

/** A transcription server is set. */
export function canListen(c: VoiceConfig | null): boolean {
  return c !== null && c.stt.baseURL.trim() !== ''
}

/** Whether this page has the focus (false where there is no document to ask). */
function pageFocused(): boolean {
  return typeof document !== 'undefined' && typeof document.hasFocus === 'function' && document.hasFocus()
}

/** The desktop's Go capture when its bindings are there, else the browser's. */
export function pickBackend(): MicBackend {
  const desktop = desktopMicBindings()
  return desktop === null ? new BrowserMic() : new DesktopMic(desktop.mic, desktop.events)
}

export class Voice {
  readonly config: LoadStore<VoiceConfig>
  readonly speech: Speech
  readonly mic: Mic

  constructor(deps: VoiceDeps, backend: () => MicBackend = pickBackend) {
    this.config = new LoadStore(deps.api, async (api) => (await api.getConfig()).config.voice)
    const client = () => {
      const api = deps.api()
      if (api === null) throw new Error('not connected to the Wisp server')
      return api
    }
    this.speech = new Speech({
      speak: (text, signal) => client().voice.speak(text, undefined, signal),
      enabled: () => canSpeak(this.config.get().value),
      notice: deps.notice,
      report: (event, detail) => void deps.api()?.uiReport(event, detail).catch(() => undefined),
    })
    // The sound output can take seconds to start (WebKitGTK's GStreamer sink): it is
    // started as soon as this window may speak, not when the first clause is ready.
    this.config.subscribe(() => {
      if (canSpeak(this.config.get().value)) this.speech.player.warm()
    })
    this.mic = new Mic({
      backend,
      transcribe: (wav) => client().voice.transcribe(wav),
      stopSpeech: this.speech.stop,
    })
  }

  /**
   * Something Wisp said on its own arrived (a proactive-message frame). Every window
   * hears the frame, so only one should speak it: the desktop window, or a browser
   * window that has the focus.
   */
  proactive(text: string, focused: boolean = pageFocused()): void {
    if (desktopMicBindings() !== null || focused) this.speech.aside(text)
  }

  /**
   * After the config changed: the voice's paths read the voice settings again.
   * (None: anything may have changed; the page's ui settings load then, and
   * they bring the voice's with them.)
   */
  configChanged(paths: readonly string[]): void {
    if (paths.some((p) => p.startsWith('voice.'))) void this.config.load()
  }
}
