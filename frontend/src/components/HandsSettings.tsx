// Settings → Files and web (docs/files.md, docs/web.md): the folders the
// agent may list, read and edit (none by default: no file access; each read
// and edit is still asked for), the hosts on your network it may fetch
// although they resolve to a private address, and the web search backend
// (off, SearXNG, Brave Search with a write-only key kept like the model's).
// Saved on its own (Save files and web) as a merge patch; the server's
// refusal shows inline. The settings are read at every use: no restart.

import './HandsSettings.css'
import { useEffect, useState } from 'react'
import type { ConfigSnapshot, SearchProvider } from '../api'
import { errorMessage } from '../state/chatRunner'
import { KEEP_SECRET, SEARCH_KEY_PATH, SEARCH_OPTIONS, checkHost, checkRoot, handsForm, handsPatch, type HandsForm, type SecretEdit } from '../state/handsForm'
import { useApi } from '../state/wispContext'
import { ListSetting } from './ListSetting'

interface Props {
  snap: ConfigSnapshot
  disabled: boolean
  /** Reads the settings again after a save. */
  reload(): void
}

export function HandsSettings({ snap, disabled, reload }: Props) {
  const api = useApi()
  const saved = snap.config
  const [form, setForm] = useState<HandsForm>(() => handsForm(saved))
  const [key, setKey] = useState<SecretEdit>(KEEP_SECRET)
  const [busy, setBusy] = useState(false)
  const [note, setNote] = useState<{ error: boolean; text: string } | null>(null)
  const { patch, changed } = handsPatch(saved, form, key)

  // The saved settings changed (a save here, another window): inputs not edited follow.
  const [base, setBase] = useState(saved)
  useEffect(() => {
    if (saved === base) return
    setForm((f) => {
      const was = handsForm(base)
      const now = handsForm(saved)
      const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)
      return {
        roots: same(f.roots, was.roots) ? now.roots : f.roots,
        allowHosts: same(f.allowHosts, was.allowHosts) ? now.allowHosts : f.allowHosts,
        provider: f.provider === was.provider ? now.provider : f.provider,
        baseURL: f.baseURL === was.baseURL ? now.baseURL : f.baseURL,
      }
    })
    setBase(saved)
  }, [saved, base])

  const set = <K extends keyof HandsForm>(k: K, v: HandsForm[K]) => {
    setNote(null)
    setForm((f) => ({ ...f, [k]: v }))
  }

  const save = async () => {
    if (api === null || changed.length === 0) return
    setBusy(true)
    setNote(null)
    try {
      await api.patchConfig(patch)
      setKey(KEEP_SECRET)
      setNote({ error: false, text: 'Saved. The agent uses it from its next action.' })
      reload()
    } catch (err) {
      setNote({ error: true, text: errorMessage(err) })
    } finally {
      setBusy(false)
    }
  }

  const lock = disabled || busy
  const hasKey = snap.secrets[SEARCH_KEY_PATH] === true
  return (
    <section className="settings-section" aria-labelledby="settings-hands" data-testid="settings-section-hands">
      <h3 id="settings-hands">Files and web</h3>
      <div className="settings-grid">
        <ListSetting
          name="files-roots"
          label="Folders the agent may work in"
          empty="None: the agent cannot read or change any file. Add a folder to let it (it still asks before reading a folder the first time, and before every change)."
          hint="Absolute paths. Wisp's own folder and config file stay out of reach even under one."
          items={form.roots}
          placeholder="/home/you/project"
          disabled={lock}
          check={(text, items) => {
            const r = checkRoot(text, items)
            return r.ok ? { ok: true, value: r.root } : r
          }}
          onChange={(roots) => set('roots', roots)}
        />
        <ListSetting
          name="web-allowHosts"
          label="Hosts on your network the agent may fetch"
          empty="None: pages on this computer and your network (localhost, 192.168.…, 10.…) are refused."
          hint="A host name or IP address only (nas.local, 192.168.1.20); public sites need no entry."
          items={form.allowHosts}
          placeholder="nas.local"
          disabled={lock}
          check={(text, items) => {
            const r = checkHost(text, items)
            return r.ok ? { ok: true, value: r.host } : r
          }}
          onChange={(hosts) => set('allowHosts', hosts)}
        />
        <div className="setting">
          <label htmlFor="setting-web.search.provider" className="setting-label">
            Web search
          </label>
          <select
            id="setting-web.search.provider"
            data-testid="web-search-provider"
            value={form.provider}
            disabled={lock}
            onChange={(e) => set('provider', e.target.value as SearchProvider)}
          >
            {SEARCH_OPTIONS.map((o) => (
              <option key={o.value} value={o.value}>
                {o.label}
              </option>
            ))}
          </select>
        </div>
        {form.provider === 'searxng' || form.baseURL !== '' ? (
          <div className="setting">
            <label htmlFor="setting-web.search.baseURL" className="setting-label">
              Search server
            </label>
            <input
              id="setting-web.search.baseURL"
              data-testid="web-search-baseURL"
              type="text"
              spellCheck={false}
              autoComplete="off"
              placeholder={form.provider === 'searxng' ? 'http://127.0.0.1:8888 (required)' : "the provider's default"}
              value={form.baseURL}
              disabled={lock}
              onChange={(e) => set('baseURL', e.target.value)}
            />
          </div>
        ) : null}
        {form.provider === 'brave' || hasKey ? (
          <SearchKeyField
            has={hasKey}
            edit={key}
            disabled={lock}
            onEdit={(k) => {
              setNote(null)
              setKey(k)
            }}
          />
        ) : null}
      </div>
      <div className="hands-actions">
        <button type="button" className="header-button" data-testid="hands-save" disabled={lock || changed.length === 0} onClick={() => void save()}>
          {busy ? 'Saving…' : 'Save files and web'}
        </button>
        {note !== null ? (
          <span className={note.error ? 'setting-error' : 'hint'} role={note.error ? 'alert' : 'status'} data-testid="hands-note">
            {note.text}
          </span>
        ) : changed.length > 0 ? (
          <span className="hint">Unsaved changes</span>
        ) : null}
      </div>
    </section>
  )
}

function SearchKeyField({ has, edit, disabled, onEdit }: { has: boolean; edit: SecretEdit; disabled: boolean; onEdit(k: SecretEdit): void }) {
  const id = 'setting-web.search.apiKey'
  return (
    <div className="setting">
      <label htmlFor={id} className="setting-label">
        Search API key
      </label>
      <div className="setting-row">
        <input
          id={id}
          data-testid="web-search-apiKey"
          type="password"
          autoComplete="new-password"
          spellCheck={false}
          placeholder={has ? 'leave empty to keep the saved key' : 'your Brave Search API key'}
          value={edit.value}
          disabled={disabled || edit.remove}
          aria-describedby={`${id}-hint`}
          onChange={(e) => onEdit({ value: e.target.value, remove: false })}
        />
        {has ? (
          <button type="button" className="header-button" data-testid="web-search-remove-key" disabled={disabled} onClick={() => onEdit({ value: '', remove: !edit.remove })}>
            {edit.remove ? 'Keep key' : 'Remove key'}
          </button>
        ) : null}
      </div>
      <span id={`${id}-hint`} className="hint" data-testid="web-search-key-state">
        {edit.remove ? 'The saved key is removed when you save.' : has ? 'A key is saved. It is never shown.' : 'No key is saved.'}
      </span>
    </div>
  )
}
