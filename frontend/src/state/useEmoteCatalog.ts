// The page's emote catalog (GET /api/emotes, WispPage's emoteCatalog store)
// for a component: loads it when the API client is known and again on
// reload() (the list can change while Wisp runs).

import { useEffect } from 'react'
import type { EmoteCatalog } from '../api'
import { useStore } from './store'
import { useApi, useWisp } from './wispContext'

export interface EmoteCatalogState {
  catalog: EmoteCatalog | null
  error: string | null
  /** The error is a 401: the token form is already asking for a token. */
  unauthorized: boolean
  loading: boolean
  reload(): void
}

export function useEmoteCatalog(): EmoteCatalogState {
  const store = useWisp().emoteCatalog
  const api = useApi()
  useEffect(() => {
    if (api !== null) void store.load()
  }, [store, api])
  const { value, error, unauthorized, loading } = useStore(store)
  return { catalog: value, error, unauthorized, loading, reload: store.load }
}
