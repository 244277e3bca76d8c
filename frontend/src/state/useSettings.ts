// The settings view's state from React: one SettingsStore (settingsStore.ts)
// per open settings view, loaded when it opens, again when the API client
// or the file's error changes, and whenever the config watcher says a
// setting changed (keeping the user's unsaved edits).

import { useEffect, useState } from 'react'
import type { ConfigSnapshot } from '../api'
import type { FormValue, FormValues, KeyEdit } from './settingsForm'
import { isEdited, SettingsStore, shownValues } from './settingsStore'
import { useStore } from './store'
import { useApi, useAppState, useWisp } from './wispContext'

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

export function useSettings(): Settings {
  const page = useWisp()
  const api = useApi()
  // The file error the server reports now: the snapshot is read again when it changes.
  const configError = useAppState((s) => s.status?.configError ?? '')
  const [store] = useState(
    () => new SettingsStore({ api: () => page.api.get(), restartRequired: page.restartRequired, refreshStatus: page.refreshStatus }),
  )
  useEffect(() => page.onConfigChanged(() => void store.load()), [page, store])
  useEffect(() => {
    void store.load()
  }, [store, api, configError])

  const s = useStore(store)
  return {
    snap: s.snap,
    loadError: s.loadError,
    values: shownValues(s),
    edited: isEdited(s),
    key: s.key,
    saving: s.saving,
    shellEnabled: s.shellPending ?? s.snap?.config.features.shellEnabled ?? false,
    shellBusy: s.shellPending !== null,
    fieldErrors: s.fieldErrors,
    error: s.error,
    problem: s.problem,
    saved: s.saved,
    setValue: store.setValue,
    setKey: store.setKey,
    save: store.save,
    setShell: store.setShell,
    reload: () => void store.load(),
  }
}
