// The settings view's state, a Store (store.ts) made per open settings view:
// the snapshot of GET /api/config (reloaded when the config watcher says
// something changed, keeping the user's unsaved edits), the edits, saving
// them as a merge patch, and shell access, which is saved at once. The form
// logic is in settingsForm.ts; useSettings.ts makes and feeds the store.

import { ApiError, type ApiClient, type ConfigSnapshot } from '../api'
import { safeLocalStorage } from '../api/connection'
import { errorMessage } from './chatRunner'
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
import { Store } from './store'
import { applyTheme } from './theme'

export interface SettingsState {
  snap: ConfigSnapshot | null
  loadError: string | null
  /** The user's edits by path, not saved yet. */
  edits: FormValues
  key: KeyEdit
  saving: boolean
  /** The shell access being saved (null: none). */
  shellPending: boolean | null
  /** Path → problem with that setting (from the form or the server's 400). */
  fieldErrors: Record<string, string>
  /** Why the last save or shell change failed. */
  error: string | null
  /** After a refused save: the first setting with a problem (a new object each time). */
  problem: { path: string } | null
  /** Set after a save; lists the saved settings that wait for a restart. */
  saved: { restartPaths: string[] } | null
}

export interface SettingsStoreDeps {
  api(): ApiClient | null
  /** The settings API answered that restart-only settings are pending (reasons may be empty: none). */
  restartRequired(reasons: string[]): void
  refreshStatus(): Promise<void>
}

const initialSettings: SettingsState = {
  snap: null,
  loadError: null,
  edits: {},
  key: NO_KEY_EDIT,
  saving: false,
  shellPending: null,
  fieldErrors: {},
  error: null,
  problem: null,
  saved: null,
}

function without(errors: Record<string, string>, path: string): Record<string, string> {
  if (!(path in errors)) return errors
  const { [path]: _dropped, ...rest } = errors
  return rest
}

export class SettingsStore extends Store<SettingsState> {
  private readonly deps: SettingsStoreDeps
  private generation = 0

  constructor(deps: SettingsStoreDeps) {
    super(initialSettings)
    this.deps = deps
  }

  /** Reads the config again; an answer older than a later load or save is dropped. */
  readonly load = async (): Promise<void> => {
    const api = this.deps.api()
    if (api === null) return
    const gen = ++this.generation
    try {
      const next = await api.getConfig()
      if (gen !== this.generation) return
      this.adopt(next)
      this.patch({ loadError: null })
    } catch (err) {
      if (gen === this.generation) this.patch({ loadError: `Could not read the settings: ${errorMessage(err)}` })
    }
  }

  readonly setValue = (path: string, value: FormValue): void => {
    this.set((s) => ({ ...s, edits: { ...s.edits, [path]: value }, fieldErrors: without(s.fieldErrors, path), saved: null }))
  }

  readonly setKey = (edit: KeyEdit): void => {
    this.set((s) => ({ ...s, key: edit, fieldErrors: without(s.fieldErrors, 'model.apiKey'), saved: null }))
  }

  /** Saves what changed as a merge patch; a refusal marks the setting it names. */
  readonly save = async (): Promise<void> => {
    const api = this.deps.api()
    const { snap, saving, edits, key } = this.get()
    if (api === null || snap === null || saving) return
    const { patch, changed, errors } = buildPatch(snap.config, edits, key)
    this.patch({ fieldErrors: errors, error: null })
    const first = Object.keys(errors)[0]
    if (first !== undefined) {
      this.patch({ error: 'Some settings need another look; nothing was saved.', problem: { path: first } })
      return
    }
    if (changed.length === 0) return
    this.patch({ saving: true })
    try {
      const next = await api.patchConfig(patch)
      this.generation++ // a load asked before this answer would show the config before the save
      this.patch({ edits: {}, key: NO_KEY_EDIT })
      this.adopt(next)
      const restartPaths = changed.filter((p) => next.fields.find((f) => f.path === p)?.apply === 'restart')
      this.patch({ saved: { restartPaths } })
      this.deps.restartRequired(next.pendingRestart ? next.pendingRestartReasons : [])
      await this.deps.refreshStatus()
    } catch (err) {
      const text = errorMessage(err)
      const path = err instanceof ApiError && err.status === 400 ? errorPath(text, FORM_PATHS) : null
      if (path !== null) this.patch({ fieldErrors: { [path]: text }, problem: { path } })
      this.patch({ error: `Not saved: ${text}` })
    } finally {
      this.patch({ saving: false })
    }
  }

  /** Turns shell access on or off at once (its own API), then reads the config again. */
  readonly setShell = async (enabled: boolean): Promise<void> => {
    const api = this.deps.api()
    const { snap, shellPending } = this.get()
    if (api === null || snap === null || shellPending !== null) return
    this.patch({ shellPending: enabled, error: null })
    try {
      const res = await api.setShellAccess(enabled)
      this.set((s) => {
        if (s.snap === null) return s
        const features = { ...s.snap.config.features, shellEnabled: res.enabled }
        return { ...s, snap: { ...s.snap, config: { ...s.snap.config, features } } }
      })
      this.deps.restartRequired(res.pendingRestart ? res.pendingRestartReasons : [])
      void this.load()
    } catch (err) {
      this.patch({ error: `Shell access not changed: ${errorMessage(err)}` })
    } finally {
      this.patch({ shellPending: null })
    }
  }

  private adopt(next: ConfigSnapshot): void {
    this.set((s) => ({ ...s, snap: next, edits: pendingEdits(next.config, s.edits) }))
    applyTheme(next.config.ui.theme, document.documentElement, safeLocalStorage())
  }
}

/** What each input shows: the saved value or the user's edit. */
export function shownValues(s: SettingsState): FormValues {
  return s.snap === null ? {} : { ...formValues(s.snap.config), ...s.edits }
}

/** The user changed something that is not saved. */
export function isEdited(s: SettingsState): boolean {
  return (s.snap !== null && Object.keys(pendingEdits(s.snap.config, s.edits)).length > 0) || s.key.value !== '' || s.key.remove
}
