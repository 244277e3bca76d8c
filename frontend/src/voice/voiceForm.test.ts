import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG } from '../api'
import { KEEP_KEY, voiceForm, voicePatch } from './voiceForm'

const config = DEFAULT_CONFIG.voice

describe('voicePatch', () => {
  it('is empty when nothing changed', () => {
    expect(voicePatch(config, voiceForm(config), KEEP_KEY, KEEP_KEY)).toEqual({ patch: {}, changed: [], errors: {} })
  })

  it('patches only what changed, trimmed, with the speed as a number', () => {
    const f = { ...voiceForm(config), ttsBaseURL: ' http://127.0.0.1:8880/v1 ', ttsSpeed: '1.25', speakReplies: true }
    const got = voicePatch(config, f, KEEP_KEY, KEEP_KEY)
    expect(got.patch).toEqual({ voice: { tts: { baseURL: 'http://127.0.0.1:8880/v1', speed: 1.25 }, speakReplies: true } })
    expect(got.changed).toEqual(['voice.tts.baseURL', 'voice.tts.speed', 'voice.speakReplies'])
  })

  it('writes a new key, keeps a saved one for an empty field, and clears it on remove', () => {
    const f = voiceForm(config)
    expect(voicePatch(config, f, { value: ' sk-new ', remove: false }, KEEP_KEY).patch).toEqual({ voice: { tts: { apiKey: 'sk-new' } } })
    expect(voicePatch(config, f, KEEP_KEY, { value: '', remove: true }).patch).toEqual({ voice: { stt: { apiKey: null } } })
  })

  it('refuses a speed that is not a number', () => {
    const got = voicePatch(config, { ...voiceForm(config), ttsSpeed: 'fast' }, KEEP_KEY, KEEP_KEY)
    expect(got.errors).toEqual({ 'voice.tts.speed': 'Enter a number.' })
    expect(got.patch).toEqual({})
  })
})
