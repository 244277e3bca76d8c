// A Store of one thing the page reads from the API (the emote catalog, the
// provider, the autonomy loop's state): load() fetches it (an answer older
// than a later load is dropped), put() takes an answer that says it anew
// (a save's). Components show what it holds and call load(); they never
// fetch themselves.

import { isUnauthorized, type ApiClient } from '../api'
import { errorMessage } from './chatRunner'
import { Store } from './store'

export interface Loaded<T> {
  value: T | null
  /** Why the last load failed (null after a success). */
  error: string | null
  /** The error is a 401: the token form is already asking for a token. */
  unauthorized: boolean
  loading: boolean
}

export class LoadStore<T> extends Store<Loaded<T>> {
  private generation = 0
  private readonly api: () => ApiClient | null
  private readonly fetcher: (api: ApiClient) => Promise<T>

  constructor(api: () => ApiClient | null, fetcher: (api: ApiClient) => Promise<T>) {
    super({ value: null, error: null, unauthorized: false, loading: false })
    this.api = api
    this.fetcher = fetcher
  }

  /**
   * Fetches the value again (nothing before the API client is known).
   * Resolves to what the store holds after this load, or null when there was
   * no client or a later load or put came first.
   */
  readonly load = async (): Promise<Loaded<T> | null> => {
    const api = this.api()
    if (api === null) return null
    const gen = ++this.generation
    this.patch({ loading: true })
    try {
      const value = await this.fetcher(api)
      if (gen !== this.generation) return null
      this.set({ value, error: null, unauthorized: false, loading: false })
    } catch (err) {
      if (gen !== this.generation) return null
      this.patch({ error: errorMessage(err), unauthorized: isUnauthorized(err), loading: false })
    }
    return this.get()
  }

  /** A value the API answered otherwise (a save): newer than any load in flight. */
  put(value: T): void {
    this.generation++
    this.set({ value, error: null, unauthorized: false, loading: false })
  }
}
