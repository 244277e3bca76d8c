// The settings view's state: the snapshot of GET /api/config (reloaded when
// the config watcher says something changed, keeping the user's unsaved
// edits), the edits, saving them as a merge patch, and shell access, which
// is saved at once. The form logic is in settingsForm.ts.

import { useCallback, useEffect, useState } from 'react'
import { ApiError, type ApiClient, type ConfigSnapshot, type Unsubscribe } from '../api'
import { safeLocalStorage } from '../api/connection'
import {
  FORM_PATHS,
  NO_KEY_EDIT,
  buildPatch,
  errorPath,
  formValues,
  pendingEdits,
  type FormValue,
  type FormValues,
  type KeyEdit,
} from './settingsForm'
import { applyTheme } from './theme'

export interface SettingsDeps {
  api: ApiClient | null
  /** The file error the server reports now (status); the snapshot is reloaded when it changes. */
  configError: string
  onConfigChanged(fn: (paths: string[]) => void): Unsubscribe
  /** The settings API answered that restart-only settings are pending (reasons may be empty: none). */
  restartRequired(reasons: string[]): void
  refreshStatus(): Promise<void>
}

export interface Settings {
  snap: ConfigSnapshot | null
  loadError: string | null
  /** What each input shows: the saved value or the user's edit. */
  values: FormValues
  edited: boolean
  key: KeyEdit
  saving: boolean
  /** Shell access as the switch shows it: the file's value, or the one being saved. */
  shellEnabled: boolean
  shellBusy: boolean
  /** Path → problem with that setting (from the form or the server's 400). */
  fieldErrors: Record<string, string>
  /** Why the last save or shell change failed. */
  error: string | null
  /** After a refused save: the first setting with a problem (a new object each time). */
  problem: { path: string } | null
  /** Set after a save; lists the saved settings that wait for a restart. */
  saved: { restartPaths: string[] } | null
  setValue(path: string, value: FormValue): void
  setKey(edit: KeyEdit): void
  save(): Promise<void>
  setShell(enabled: boolean): Promise<void>
  reload(): void
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err)
}

export function useSettings({ api, configError, onConfigChanged, restartRequired, refreshStatus }: SettingsDeps): Settings {
  const [snap, setSnap] = useState<ConfigSnapshot | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [edits, setEdits] = useState<FormValues>({})
  const [key, setKeyEdit] = useState<KeyEdit>(NO_KEY_EDIT)
  const [saving, setSaving] = useState(false)
  const [shellPending, setShellPending] = useState<boolean | null>(null)
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({})
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState<Settings['saved']>(null)
  const [problem, setProblem] = useState<Settings['problem']>(null)
  const [generation, setGeneration] = useState(0)

  const adopt = useCallback((next: ConfigSnapshot) => {
    setSnap(next)
    setEdits((e) => pendingEdits(next.config, e))
    applyTheme(next.config.ui.theme, document.documentElement, safeLocalStorage())
  }, [])

  const reload = useCallback(() => setGeneration((n) => n + 1), [])
  useEffect(() => onConfigChanged(reload), [onConfigChanged, reload])

  useEffect(() => {
    if (api === null) return
    let cancelled = false
    api.getConfig().then(
      (next) => {
        if (cancelled) return
        adopt(next)
        setLoadError(null)
      },
      (err: unknown) => {
        if (!cancelled) setLoadError(`Could not read the settings: ${message(err)}`)
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, generation, configError, adopt])

  const setValue = useCallback((path: string, value: FormValue) => {
    setEdits((e) => ({ ...e, [path]: value }))
    setFieldErrors((errors) => {
      if (!(path in errors)) return errors
      const { [path]: _dropped, ...rest } = errors
      return rest
    })
    setSaved(null)
  }, [])

  const setKey = useCallback((edit: KeyEdit) => {
    setKeyEdit(edit)
    setFieldErrors((errors) => {
      if (!('model.apiKey' in errors)) return errors
      const { 'model.apiKey': _dropped, ...rest } = errors
      return rest
    })
    setSaved(null)
  }, [])

  const save = useCallback(async () => {
    if (api === null || snap === null || saving) return
    const { patch, changed, errors } = buildPatch(snap.config, edits, key)
    setFieldErrors(errors)
    setError(null)
    const first = Object.keys(errors)[0]
    if (first !== undefined) {
      setError('Some settings need another look; nothing was saved.')
      setProblem({ path: first })
      return
    }
    if (changed.length === 0) return
    setSaving(true)
    try {
      const next = await api.patchConfig(patch)
      setEdits({})
      setKeyEdit(NO_KEY_EDIT)
      adopt(next)
      const restartPaths = changed.filter((p) => next.fields.find((f) => f.path === p)?.apply === 'restart')
      setSaved({ restartPaths })
      restartRequired(next.pendingRestart ? next.pendingRestartReasons : [])
      await refreshStatus()
    } catch (err) {
      const text = message(err)
      const path = err instanceof ApiError && err.status === 400 ? errorPath(text, FORM_PATHS) : null
      if (path !== null) {
        setFieldErrors({ [path]: text })
        setProblem({ path })
      }
      setError(`Not saved: ${text}`)
    } finally {
      setSaving(false)
    }
  }, [api, snap, saving, edits, key, adopt, restartRequired, refreshStatus])

  const setShell = useCallback(
    async (enabled: boolean) => {
      if (api === null || snap === null || shellPending !== null) return
      setShellPending(enabled)
      setError(null)
      try {
        const res = await api.setShellAccess(enabled)
        const features = { ...snap.config.features, shellEnabled: res.enabled }
        setSnap({ ...snap, config: { ...snap.config, features } })
        restartRequired(res.pendingRestart ? res.pendingRestartReasons : [])
        reload()
      } catch (err) {
        setError(`Shell access not changed: ${message(err)}`)
      } finally {
        setShellPending(null)
      }
    },
    [api, snap, shellPending, restartRequired, reload],
  )

  const values = snap === null ? {} : { ...formValues(snap.config), ...edits }
  const edited = (snap !== null && Object.keys(pendingEdits(snap.config, edits)).length > 0) || key.value !== '' || key.remove
  return {
    snap,
    loadError,
    values,
    edited,
    key,
    saving,
    shellEnabled: shellPending ?? snap?.config.features.shellEnabled ?? false,
    shellBusy: shellPending !== null,
    fieldErrors,
    error,
    problem,
    saved,
    setValue,
    setKey,
    save,
    setShell,
    reload,
  }
}
