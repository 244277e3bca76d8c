import { describe, expect, it } from 'vitest'
import { DEFAULT_CONFIG, type ApiClient, type ConfigSnapshot } from '../api'
import { canListen, canSpeak, Voice } from './voice'
import type { MicBackend } from './micCapture'

const voiceOf = (over: Partial<typeof DEFAULT_CONFIG.voice>) => ({ ...DEFAULT_CONFIG.voice, ...over })

describe('canSpeak and canListen', () => {
  it('need the switch and a server', () => {
    expect(canSpeak(null)).toBe(false)
    expect(canSpeak(voiceOf({ speakReplies: true }))).toBe(false)
    expect(canSpeak(voiceOf({ speakReplies: true, tts: { ...DEFAULT_CONFIG.voice.tts, baseURL: 'http://x/v1' } }))).toBe(true)
    expect(canSpeak(voiceOf({ speakReplies: false, tts: { ...DEFAULT_CONFIG.voice.tts, baseURL: 'http://x/v1' } }))).toBe(false)
    expect(canListen(voiceOf({ stt: { ...DEFAULT_CONFIG.voice.stt, baseURL: ' ' } }))).toBe(false)
    expect(canListen(voiceOf({ stt: { ...DEFAULT_CONFIG.voice.stt, baseURL: 'http://x/v1' } }))).toBe(true)
  })
})

describe('Voice', () => {
  it('reads the voice settings again only when a voice setting changed', async () => {
    let reads = 0
    const api = {
      getConfig: async () => {
        reads++
        return { config: { ...DEFAULT_CONFIG, voice: voiceOf({ autoSend: true }) } } as unknown as ConfigSnapshot
      },
    } as unknown as ApiClient
    const backend: MicBackend = { start: async () => undefined, stop: async () => null }
    const v = new Voice({ api: () => api, notice: () => undefined }, () => backend)
    v.configChanged(['ui.theme'])
    v.configChanged([])
    expect(reads).toBe(0)
    v.configChanged(['voice.autoSend'])
    await new Promise((r) => setTimeout(r, 0))
    expect(reads).toBe(1)
    expect(v.config.get().value?.autoSend).toBe(true)
  })

  it('stops the speech when the mic starts', async () => {
    const backend: MicBackend = { start: async () => undefined, stop: async () => null }
    let aborted = false
    const api = {
      voice: {
        speak: (_t: string, _v: string | undefined, signal: AbortSignal) =>
          new Promise<ArrayBuffer>((_res, rej) => signal.addEventListener('abort', () => {
            aborted = true
            rej(new DOMException('aborted', 'AbortError'))
          })),
      },
    } as unknown as ApiClient
    const v = new Voice({ api: () => api, notice: () => undefined }, () => backend)
    v.speech.say('Hello.')
    expect(v.speech.state.get().status).toBe('loading')
    await v.mic.start()
    expect(v.speech.active()).toBe(false)
    expect(aborted).toBe(true)
  })

  it('speaks a proactive message only in a focused browser window, with speaking replies on', async () => {
    const asked: string[] = []
    const api = {
      voice: { speak: async (t: string) => (asked.push(t), new ArrayBuffer(0)) },
      uiReport: async () => ({ ok: true }),
    } as unknown as ApiClient
    const backend: MicBackend = { start: async () => undefined, stop: async () => null }
    const v = new Voice({ api: () => api, notice: () => undefined }, () => backend)
    v.config.put(voiceOf({ speakReplies: true, tts: { baseURL: 'http://127.0.0.1:9/v1', model: 'tts-1', voice: 'alloy', speed: 1 } }))
    v.proactive('Reminder: stretch', false)
    expect(asked).toEqual([])
    v.proactive('Reminder: stretch', true)
    await new Promise((r) => setTimeout(r, 0))
    expect(asked).toEqual(['Reminder: stretch'])
  })
})
