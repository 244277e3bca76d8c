// The memory editor of Settings → Memory (docs/memory.md), a Store of the
// page's WispPage: the memory as the server last said (the base of an edit),
// the text being edited, saving with the base's version (a 409 says the
// memory changed elsewhere: nothing is overwritten, the user reloads), the
// memory-updated frame (taken at once when nothing is being edited, else
// said so), the history of versions and Undo of the last change.
// Components select from it and call its methods; they never fetch.

import { ApiError, type Memory, type MemoryClient, type MemoryVersion } from '../api'
import { errorMessage } from './chatRunner'
import { Store } from './store'

/** The API the store needs (ApiClient.memory). */
export type MemoryApi = Pick<MemoryClient, 'get' | 'save' | 'history' | 'undo'>

export interface MemoryState {
  /** The memory as the server last said; null until loaded. */
  memory: Memory | null
  /** The editor's text (the memory's when nothing is edited). */
  draft: string
  loading: boolean
  loadError: string | null
  saving: boolean
  /** The last save went through and nothing was edited since. */
  saved: boolean
  /**
   * A save was refused (409) because the memory had changed since the edit
   * began: nothing was written; the user reloads (dropping the edit) or copies it first.
   */
  conflict: string | null
  /** Why the last save or undo failed otherwise. */
  error: string | null
  /** A newer memory arrived (memory-updated) while the editor had unsaved edits. */
  newer: Memory | null
  /** Every kept version, newest first; null until loaded. */
  history: readonly MemoryVersion[] | null
  historyError: string | null
  undoing: boolean
}

export const initialMemory: MemoryState = {
  memory: null,
  draft: '',
  loading: false,
  loadError: null,
  saving: false,
  saved: false,
  conflict: null,
  error: null,
  newer: null,
  history: null,
  historyError: null,
  undoing: false,
}

const utf8 = new TextEncoder()

/** The size of text as the server counts it (UTF-8 bytes). */
export function byteLength(text: string): number {
  return utf8.encode(text).length
}

/** The editor holds text the server does not have. */
export function isEdited(s: MemoryState): boolean {
  return s.memory !== null && s.draft !== s.memory.text
}

/** The draft is over the memory's size bound (it cannot be saved). */
export function isOverLimit(s: MemoryState): boolean {
  return s.memory !== null && byteLength(s.draft) > s.memory.maxBytes
}

export class MemoryStore extends Store<MemoryState> {
  private api: MemoryApi | null = null
  private loadGeneration = 0
  private historyGeneration = 0

  constructor() {
    super(initialMemory)
  }

  setApi(api: MemoryApi | null): void {
    this.api = api
  }

  /** Loads the memory and its history (Settings → Memory opened, or Reload); drops the draft. */
  readonly load = async (): Promise<void> => {
    const api = this.api
    if (api === null) return
    const gen = ++this.loadGeneration
    this.patch({ loading: true, loadError: null })
    try {
      const memory = await api.get()
      if (gen !== this.loadGeneration) return
      this.take(memory)
    } catch (err) {
      if (gen === this.loadGeneration) this.patch({ loading: false, loadError: errorMessage(err) })
      return
    }
    await this.loadHistory()
  }

  /** Settings › Memory is shown: loads it, or (an edit kept from before) asks again without dropping the edit. */
  readonly open = async (): Promise<void> => {
    if (isEdited(this.get())) await Promise.all([this.refresh(), this.loadHistory()])
    else await this.load()
  }

  /** The user typed. */
  readonly edit = (text: string): void => {
    this.patch({ draft: text, saved: false, error: null })
  }

  /** Drops the edit: back to the memory as last loaded (or the newer one that arrived meanwhile). */
  readonly revert = (): void => {
    const s = this.get()
    const memory = s.newer ?? s.memory
    if (memory !== null) this.take(memory)
  }

  /**
   * Saves the draft over the version it was edited from. Refused before
   * sending when over the size bound; a 409 (changed elsewhere) keeps the
   * draft and says so.
   */
  readonly save = async (): Promise<void> => {
    const api = this.api
    const s = this.get()
    if (api === null || s.memory === null || s.saving || !isEdited(s) || isOverLimit(s)) return
    const text = s.draft
    this.patch({ saving: true, error: null, conflict: null, saved: false })
    try {
      const result = await api.save(text, s.memory.version)
      if (!result.ok) {
        this.patch({ saving: false, conflict: result.error })
        return
      }
      this.loadGeneration++ // a load in flight is older than this answer
      const edited = this.get().draft !== text
      this.set((prev) => ({
        ...prev,
        memory: result.memory,
        draft: edited ? prev.draft : result.memory.text,
        saving: false,
        saved: !edited,
        newer: null,
      }))
      void this.loadHistory()
    } catch (err) {
      this.patch({ saving: false, error: errorMessage(err) })
    }
  }

  /** Goes back to the version before the newest (the editor then shows it). */
  readonly undo = async (): Promise<void> => {
    const api = this.api
    const s = this.get()
    if (api === null || s.undoing || s.saving) return
    this.patch({ undoing: true, error: null })
    try {
      const memory = await api.undo()
      this.loadGeneration++
      this.patch({ undoing: false })
      this.take(memory)
      void this.loadHistory()
    } catch (err) {
      const message = err instanceof ApiError && err.status === 409 ? 'There is no earlier version to go back to.' : errorMessage(err)
      this.patch({ undoing: false, error: message })
    }
  }

  /**
   * A memory-updated frame: the editor shows it at once when it has no
   * unsaved edits; otherwise it keeps them and says a newer memory is there.
   * The version the editor has (this page's own save) changes nothing.
   */
  readonly receive = (memory: Memory): void => {
    const s = this.get()
    if (s.memory === null) return // not open: the next load reads it
    if (memory.version === s.memory.version && memory.text === s.memory.text) return
    // The frame of this page's own save, ahead of its answer.
    if (s.saving && memory.text === s.draft) return
    this.loadGeneration++
    if (isEdited(s) || s.saving) this.patch({ newer: memory })
    else this.take(memory)
    if (s.history !== null) void this.loadHistory()
  }

  /** Frames may have been missed (/ws resync): asks again, taken as a frame would be. */
  readonly refresh = async (): Promise<void> => {
    const api = this.api
    if (api === null || this.get().memory === null) return
    try {
      this.receive(await api.get())
    } catch (err) {
      console.warn('wisp: cannot reload the memory:', errorMessage(err))
    }
  }

  /** Loads the history of versions. */
  readonly loadHistory = async (): Promise<void> => {
    const api = this.api
    if (api === null) return
    const gen = ++this.historyGeneration
    try {
      const history = await api.history()
      if (gen === this.historyGeneration) this.patch({ history, historyError: null })
    } catch (err) {
      if (gen === this.historyGeneration) this.patch({ historyError: errorMessage(err) })
    }
  }

  /** The memory the server has now replaces the editor's text. */
  private take(memory: Memory): void {
    this.set((prev) => ({
      ...prev,
      memory,
      draft: memory.text,
      loading: false,
      loadError: null,
      saved: false,
      conflict: null,
      error: null,
      newer: null,
    }))
  }
}
