// Speech out and in (docs/voice.md), a part of the one API client:
// ApiClient.voice (rest.ts) is a VoiceClient over the client's own transport
// (its auth headers, its ApiError). POST /api/speech {text, voice?} answers
// the clause's audio (WAV); POST /api/transcriptions takes raw audio (a
// non-JSON body like an upload: X-Wisp-Upload: 1) and answers {text}.

import type { AttachmentsTransport } from './restAttachments'
import { UPLOAD_HEADER } from './restAttachments'
import { decodeOrNull, decodeTranscription, type SpeechBody } from './wire.gen'

/** The transport a VoiceClient uses: the same as the attachments'. */
export type VoiceTransport = AttachmentsTransport

/** The longest text one speech request takes (OpenAI's limit; the server refuses more). */
export const MAX_SPEECH_CHARS = 4096

export class VoiceClient {
  constructor(private readonly transport: VoiceTransport) {}

  /** The audio of text spoken (voice: '' or absent = the configured one). */
  async speak(text: string, voice?: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    const body: SpeechBody = { text }
    if (voice !== undefined && voice !== '') body.voice = voice
    const init: RequestInit & { headers: Record<string, string> } = {
      method: 'POST',
      headers: { Accept: 'audio/*', 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    }
    if (signal !== undefined) init.signal = signal
    const res = await this.transport.fetch('/api/speech', init)
    if (!res.ok) throw await this.transport.failed(res)
    return res.arrayBuffer()
  }

  /** The text said in audio (a WAV, or what the Blob's type says). */
  async transcribe(audio: Blob, signal?: AbortSignal): Promise<string> {
    const init: RequestInit & { headers: Record<string, string> } = {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Content-Type': audio.type === '' ? 'audio/wav' : audio.type,
        [UPLOAD_HEADER]: '1',
      },
      body: audio,
    }
    if (signal !== undefined) init.signal = signal
    const res = await this.transport.fetch('/api/transcriptions', init)
    if (!res.ok) throw await this.transport.failed(res)
    let parsed: unknown
    try {
      parsed = JSON.parse(await res.text())
    } catch {
      throw this.transport.malformed('transcription')
    }
    const t = decodeOrNull(decodeTranscription, parsed)
    if (t === null) throw this.transport.malformed('transcription')
    return t.text
  }
}
