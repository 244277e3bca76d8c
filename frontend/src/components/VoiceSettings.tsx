// Settings → Voice (docs/voice.md): the speech server (base URL, model, voice,
// key, speed) and "speak replies", the transcription server (base URL, model,
// key) and "send what I say at once". Saved on its own (Save voice settings)
// as a merge patch; the keys are write-only like the model's (kept in the
// keyring when there is one). Test speaks a sentence with the saved settings.

import './VoiceSettings.css'
import { useEffect, useState, type ReactNode } from 'react'
import type { ConfigSnapshot } from '../api'
import { errorMessage } from '../state/chatRunner'
import { useStore } from '../state/store'
import { useApi, useWisp } from '../state/wispContext'
import { KEEP_KEY, STT_KEY_PATH, TEST_SENTENCE, TTS_KEY_PATH, voiceForm, voicePatch, type KeyChange, type VoiceForm } from '../voice/voiceForm'

interface Props {
  snap: ConfigSnapshot
  disabled: boolean
  /** Reads the settings again after a save. */
  reload(): void
}

export function VoiceSettings({ snap, disabled, reload }: Props) {
  const api = useApi()
  const { voice } = useWisp()
  const saved = snap.config.voice
  const [form, setForm] = useState<VoiceForm>(() => voiceForm(saved))
  const [ttsKey, setTtsKey] = useState<KeyChange>(KEEP_KEY)
  const [sttKey, setSttKey] = useState<KeyChange>(KEEP_KEY)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null)
  const [testing, setTesting] = useState(false)
  const speech = useStore(voice.speech.state)
  const { patch, changed, errors } = voicePatch(saved, form, ttsKey, sttKey)

  // The saved settings changed (a save here, another window): inputs not edited follow.
  const [base, setBase] = useState(saved)
  useEffect(() => {
    if (saved === base) return
    setForm((f) => {
      const was = voiceForm(base)
      const now = voiceForm(saved)
      const next = { ...f }
      for (const k of Object.keys(now) as (keyof VoiceForm)[]) if (f[k] === was[k]) (next as Record<string, unknown>)[k] = now[k]
      return next
    })
    setBase(saved)
  }, [saved, base])

  useEffect(() => {
    if (testing && speech.status === 'idle') setTesting(false)
  }, [testing, speech.status])

  const set = <K extends keyof VoiceForm>(k: K, v: VoiceForm[K]) => {
    setNote(null)
    setForm((f) => ({ ...f, [k]: v }))
  }

  const save = async () => {
    if (api === null || changed.length === 0 || Object.keys(errors).length > 0) return
    setBusy(true)
    setNote(null)
    try {
      await api.patchConfig(patch)
      setTtsKey(KEEP_KEY)
      setSttKey(KEEP_KEY)
      setNote({ error: false, text: 'Saved.' })
      reload()
      void voice.config.load()
    } catch (err) {
      setNote({ error: true, text: errorMessage(err) })
    } finally {
      setBusy(false)
    }
  }

  const test = () => {
    setNote(null)
    setTesting(true)
    voice.speech.say(TEST_SENTENCE)
  }

  const lock = disabled || busy
  const text = (id: string, label: string, k: 'ttsBaseURL' | 'ttsModel' | 'ttsVoice' | 'ttsSpeed' | 'sttBaseURL' | 'sttModel', placeholder: string, hint?: ReactNode) => (
    <div className="setting">
      <label htmlFor={id} className="setting-label">
        {label}
      </label>
      <input
        id={id}
        data-testid={id}
        type={k === 'ttsSpeed' ? 'number' : 'text'}
        step={k === 'ttsSpeed' ? 0.05 : undefined}
        min={k === 'ttsSpeed' ? 0.25 : undefined}
        max={k === 'ttsSpeed' ? 4 : undefined}
        autoComplete="off"
        spellCheck={false}
        placeholder={placeholder}
        value={form[k]}
        disabled={lock}
        onChange={(e) => set(k, e.target.value)}
      />
      {hint !== undefined ? <span className="hint">{hint}</span> : null}
    </div>
  )
  const check = (id: string, label: string, k: 'speakReplies' | 'autoSend') => (
    <div className="setting setting-check">
      <label htmlFor={id}>
        <input id={id} data-testid={id} type="checkbox" checked={form[k]} disabled={lock} onChange={(e) => set(k, e.target.checked)} />
        <span>{label}</span>
      </label>
    </div>
  )
  const keyField = (id: string, label: string, path: string, edit: KeyChange, setEdit: (k: KeyChange) => void) => {
    const has = snap.secrets[path] === true
    return (
      <div className="setting">
        <label htmlFor={id} className="setting-label">
          {label}
        </label>
        <div className="setting-row">
          <input
            id={id}
            data-testid={id}
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            placeholder={has ? 'leave empty to keep the saved key' : 'none (a local server needs none)'}
            value={edit.value}
            disabled={lock || edit.remove}
            onChange={(e) => setEdit({ value: e.target.value, remove: false })}
          />
          {has ? (
            <button type="button" className="header-button" disabled={lock} onClick={() => setEdit({ value: '', remove: !edit.remove })}>
              {edit.remove ? 'Keep key' : 'Remove key'}
            </button>
          ) : null}
        </div>
        <span className="hint">{edit.remove ? 'The saved key is removed when you save.' : has ? 'A key is saved. It is never shown.' : 'No key is saved.'}</span>
      </div>
    )
  }

  return (
    <section className="settings-section" aria-labelledby="settings-voice" data-testid="settings-section-voice">
      <h3 id="settings-voice">Voice</h3>
      <p className="hint">
        Any OpenAI-compatible audio server: OpenAI, or one on this computer (Kokoro-FastAPI, Speaches, LocalAI,
        whisper.cpp). The base URL ends with /v1. The microphone is on only while you record.
      </p>
      <div className="settings-grid">
        {text('voice-tts-baseURL', 'Speech server', 'ttsBaseURL', 'empty: Wisp does not speak', 'e.g. https://api.openai.com/v1')}
        {text('voice-tts-model', 'Speech model', 'ttsModel', 'tts-1')}
        {text('voice-tts-voice', 'Voice', 'ttsVoice', 'alloy')}
        {keyField('voice-tts-apiKey', 'Speech API key', TTS_KEY_PATH, ttsKey, setTtsKey)}
        {text('voice-tts-speed', 'Speed', 'ttsSpeed', '1', errors['voice.tts.speed'])}
        {check('voice-speakReplies', 'Speak replies', 'speakReplies')}
        {text('voice-stt-baseURL', 'Transcription server', 'sttBaseURL', 'empty: no microphone')}
        {text('voice-stt-model', 'Transcription model', 'sttModel', 'whisper-1')}
        {keyField('voice-stt-apiKey', 'Transcription API key', STT_KEY_PATH, sttKey, setSttKey)}
        {check('voice-autoSend', 'Send what I say at once (else it waits in the message box)', 'autoSend')}
      </div>
      <div className="voice-actions">
        <button
          type="button"
          className="header-button"
          data-testid="voice-save"
          disabled={lock || changed.length === 0 || Object.keys(errors).length > 0}
          onClick={() => void save()}
        >
          {busy ? 'Saving…' : 'Save voice settings'}
        </button>
        <button
          type="button"
          className="header-button"
          data-testid="voice-test"
          data-speech={testing ? speech.status : 'idle'}
          disabled={disabled || saved.tts.baseURL === '' || changed.length > 0}
          title={changed.length > 0 ? 'Save first: Test uses the saved settings' : undefined}
          onClick={test}
        >
          {testing && speech.status !== 'idle' ? (speech.status === 'loading' ? 'Loading…' : 'Speaking…') : 'Test'}
        </button>
        {note !== null ? (
          <span className={note.error ? 'setting-error' : 'hint'} role={note.error ? 'alert' : 'status'} data-testid="voice-note">
            {note.text}
          </span>
        ) : null}
      </div>
    </section>
  )
}
