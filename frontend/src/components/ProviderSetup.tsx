import './ProviderSetup.css'
import { useEffect, useState, type FormEvent } from 'react'
import type { ProviderInfo, ProviderKind, ProviderUpdate } from '../api'
import { useApi, useAppState, useWisp } from '../state/WispProvider'

export const PROVIDERS: { kind: ProviderKind; label: string; baseURL: string; keyHint: string }[] = [
  { kind: 'openai', label: 'OpenAI-compatible', baseURL: 'https://api.openai.com/v1', keyHint: 'sk-…' },
  { kind: 'anthropic', label: 'Anthropic', baseURL: 'https://api.anthropic.com', keyHint: 'sk-ant-…' },
  { kind: 'ollama', label: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1', keyHint: 'not needed for a local Ollama' },
]

interface Form {
  provider: ProviderKind
  baseURL: string
  model: string
  apiKey: string
}

/** The form's starting values: what is saved, or a detected Ollama, or OpenAI-compatible. */
export function initialForm(info: ProviderInfo | null): Form {
  if (info === null) return { provider: 'openai', baseURL: '', model: '', apiKey: '' }
  const provider: ProviderKind = info.provider || (info.ollama.detected ? 'ollama' : 'openai')
  const model = info.model || (provider === 'ollama' ? (info.ollama.models[0] ?? '') : '')
  return { provider, baseURL: provider === info.provider ? info.baseURL : '', model, apiKey: '' }
}

/** The PUT body: an empty base URL means the provider's default; an empty key keeps the saved one. */
export function providerUpdate(form: Form): ProviderUpdate {
  const update: ProviderUpdate = { provider: form.provider, model: form.model.trim() }
  const baseURL = form.baseURL.trim()
  if (baseURL !== '') update.baseURL = baseURL
  if (form.apiKey !== '') update.apiKey = form.apiKey
  return update
}

/** Chooses the model provider. Shown when the agent cannot respond, or from the header's Model button. */
export function ProviderSetup({ canClose }: { canClose: boolean }) {
  const { provider, saveProvider, refreshStatus, setProviderSetupOpen } = useWisp()
  const api = useApi()
  const canRespond = useAppState((s) => s.status?.canRespond ?? false)
  const canRespondReason = useAppState((s) => s.status?.canRespondReason)
  const [info, setInfo] = useState<ProviderInfo | null>(null)
  const [loading, setLoading] = useState(true)
  const [form, setForm] = useState<Form>(() => initialForm(null))
  const [saving, setSaving] = useState(false)
  const [error, setError] = useState<string | null>(null)

  // The form starts from what the page's provider store reads as it opens.
  useEffect(() => {
    if (api === null) return
    let cancelled = false
    void provider.load().then((loaded) => {
      if (cancelled || loaded === null) return
      if (loaded.error !== null) setError(`Could not read the current settings: ${loaded.error}`)
      else if (loaded.value !== null) {
        setInfo(loaded.value)
        setForm(initialForm(loaded.value))
      }
      setLoading(false)
    })
    return () => {
      cancelled = true
    }
  }, [provider, api])

  const preset = PROVIDERS.find((p) => p.kind === form.provider) ?? PROVIDERS[0]!
  const sameAsSaved = info !== null && info.provider === form.provider
  const keySaved = sameAsSaved && info.hasApiKey
  const ollamaModels = form.provider === 'ollama' ? (info?.ollama.models ?? []) : []
  const reason = info?.canRespond === false ? info.reason : canRespondReason
  const showReason = !canRespond && reason

  const busy = saving || loading
  const change = (patch: Partial<Form>) => {
    setError(null)
    setForm((f) => ({ ...f, ...patch }))
  }

  const changeProvider = (provider: ProviderKind) => {
    const saved = info !== null && info.provider === provider
    const models = provider === 'ollama' ? (info?.ollama.models ?? []) : []
    change({
      provider,
      baseURL: saved ? info.baseURL : '',
      model: saved ? info.model : (models[0] ?? ''),
      apiKey: '',
    })
  }

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault()
    if (api === null || saving || form.model.trim() === '') return
    setSaving(true)
    setError(null)
    try {
      const saved = await saveProvider(providerUpdate(form))
      setInfo(saved)
      setForm((f) => ({ ...f, apiKey: '' }))
      await refreshStatus()
      if (saved.canRespond) setProviderSetupOpen(false)
      else setError(saved.reason || 'Saved, but the agent still cannot respond with these settings.')
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form className="provider-setup" data-testid="provider-setup" onSubmit={(e) => void onSubmit(e)} aria-busy={busy}>
      <h2>{canClose ? 'Model settings' : 'Set up a model'}</h2>
      {showReason ? (
        <p className="notice notice-warn" data-testid="provider-reason">
          <strong>The agent cannot respond yet.</strong> {reason}
        </p>
      ) : (
        <p className="muted">Wisp answers with the model you choose here. Changes apply at once.</p>
      )}

      {info?.envOverrides !== undefined ? (
        <p className="notice notice-info" data-testid="provider-env">
          Set by the environment: <code>{info.envOverrides.join(', ')}</code>. Saving writes the config file, but this
          running Wisp keeps the environment's values.
        </p>
      ) : null}

      <label>
        Provider
        <select
          data-testid="provider-kind"
          value={form.provider}
          disabled={busy}
          onChange={(e) => changeProvider(e.target.value as ProviderKind)}
        >
          {PROVIDERS.map((p) => (
            <option key={p.kind} value={p.kind}>
              {p.label}
              {p.kind === 'ollama' && info?.ollama.detected ? ' (detected)' : ''}
            </option>
          ))}
        </select>
      </label>

      <label>
        Base URL
        <input
          data-testid="provider-base-url"
          type="text"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder={preset.baseURL}
          value={form.baseURL}
          disabled={busy}
          onChange={(e) => change({ baseURL: e.target.value })}
        />
        <span className="hint">Leave empty for {preset.baseURL}</span>
      </label>

      <label>
        Model
        {ollamaModels.length > 0 ? (
          <select data-testid="provider-model" value={form.model} disabled={busy} onChange={(e) => change({ model: e.target.value })}>
            {(ollamaModels.includes(form.model) || form.model === '' ? ollamaModels : [form.model, ...ollamaModels]).map((m) => (
              <option key={m} value={m}>
                {m}
              </option>
            ))}
          </select>
        ) : (
          <input
            data-testid="provider-model"
            autoComplete="off"
            spellCheck={false}
            placeholder={form.provider === 'anthropic' ? 'claude-…' : form.provider === 'ollama' ? 'llama3.2' : 'gpt-…'}
            value={form.model}
            disabled={busy}
            onChange={(e) => change({ model: e.target.value })}
          />
        )}
      </label>

      <label>
        API key
        <input
          data-testid="provider-api-key"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={keySaved ? 'a key is saved (leave empty to keep it)' : preset.keyHint}
          value={form.apiKey}
          disabled={busy}
          onChange={(e) => change({ apiKey: e.target.value })}
        />
        <span className="hint" data-testid="provider-key-state">
          {keySaved ? 'A key is saved. It is never shown; type a new one to replace it.' : "Kept in your desktop's keyring; where none answers, in the config file (readable only by you)."}
        </span>
      </label>

      {error !== null ? (
        <p className="notice notice-error" role="alert" data-testid="provider-error">
          {error}
        </p>
      ) : null}

      <div className="form-actions">
        {canClose ? (
          <button type="button" className="secondary" data-testid="provider-cancel" disabled={busy} onClick={() => setProviderSetupOpen(false)}>
            Cancel
          </button>
        ) : null}
        <button type="submit" data-testid="provider-save" disabled={api === null || busy || form.model.trim() === ''}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}
