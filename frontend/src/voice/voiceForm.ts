// Settings → Voice's form, outside React: the inputs' values from the config,
// and the merge patch of what changed. The two API keys are write-only like
// the model's: '' keeps the saved key, a value replaces it, remove clears it
// (null in the patch). Pure.

import type { MergePatch, VoiceConfig } from '../api'

export const TEST_SENTENCE = 'Hello! This is how I sound.'

export const TTS_KEY_PATH = 'voice.tts.apiKey'
export const STT_KEY_PATH = 'voice.stt.apiKey'

export interface VoiceForm {
  ttsBaseURL: string
  ttsModel: string
  ttsVoice: string
  ttsSpeed: string
  speakReplies: boolean
  sttBaseURL: string
  sttModel: string
  autoSend: boolean
}

export interface KeyChange {
  value: string
  remove: boolean
}

export const KEEP_KEY: KeyChange = { value: '', remove: false }

export function voiceForm(c: VoiceConfig): VoiceForm {
  return {
    ttsBaseURL: c.tts.baseURL,
    ttsModel: c.tts.model,
    ttsVoice: c.tts.voice,
    ttsSpeed: String(c.tts.speed),
    speakReplies: c.speakReplies,
    sttBaseURL: c.stt.baseURL,
    sttModel: c.stt.model,
    autoSend: c.autoSend,
  }
}

export interface VoicePatch {
  patch: MergePatch
  /** Paths changed ("voice.tts.baseURL"). */
  changed: string[]
  /** Path → problem with that input. */
  errors: Record<string, string>
}

function key(k: KeyChange): string | null | undefined {
  if (k.remove) return null
  return k.value.trim() === '' ? undefined : k.value.trim()
}

/** The patch {voice: {...}} of the edits that differ from c. */
export function voicePatch(c: VoiceConfig, f: VoiceForm, ttsKey: KeyChange, sttKey: KeyChange): VoicePatch {
  const tts: MergePatch = {}
  const stt: MergePatch = {}
  const voice: MergePatch = {}
  const changed: string[] = []
  const errors: Record<string, string> = {}
  const set = (node: MergePatch, path: string, name: string, value: string | number | boolean | null, was: unknown) => {
    if (value === was) return
    node[name] = value
    changed.push(path)
  }
  set(tts, 'voice.tts.baseURL', 'baseURL', f.ttsBaseURL.trim(), c.tts.baseURL)
  set(tts, 'voice.tts.model', 'model', f.ttsModel.trim(), c.tts.model)
  set(tts, 'voice.tts.voice', 'voice', f.ttsVoice.trim(), c.tts.voice)
  const speed = Number(f.ttsSpeed.trim())
  if (f.ttsSpeed.trim() === '' || !Number.isFinite(speed)) errors['voice.tts.speed'] = 'Enter a number.'
  else set(tts, 'voice.tts.speed', 'speed', speed, c.tts.speed)
  const tk = key(ttsKey)
  if (tk !== undefined) set(tts, TTS_KEY_PATH, 'apiKey', tk, undefined)
  set(stt, 'voice.stt.baseURL', 'baseURL', f.sttBaseURL.trim(), c.stt.baseURL)
  set(stt, 'voice.stt.model', 'model', f.sttModel.trim(), c.stt.model)
  const sk = key(sttKey)
  if (sk !== undefined) set(stt, STT_KEY_PATH, 'apiKey', sk, undefined)
  set(voice, 'voice.speakReplies', 'speakReplies', f.speakReplies, c.speakReplies)
  set(voice, 'voice.autoSend', 'autoSend', f.autoSend, c.autoSend)
  if (Object.keys(tts).length > 0) voice.tts = tts
  if (Object.keys(stt).length > 0) voice.stt = stt
  return { patch: Object.keys(voice).length > 0 ? { voice } : {}, changed, errors }
}
