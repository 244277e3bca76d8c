// GET /api/emotes for one component: loads when the API client is known and
// again on reload() (the list can change while Wisp runs).

import { useCallback, useEffect, useState } from 'react'
import { isUnauthorized, type ApiClient, type EmoteCatalog } from '../api'

export interface EmoteCatalogState {
  catalog: EmoteCatalog | null
  error: string | null
  /** The error is a 401: the token form is already asking for a token. */
  unauthorized: boolean
  loading: boolean
  reload(): void
}

export function useEmoteCatalog(api: ApiClient | null): EmoteCatalogState {
  const [catalog, setCatalog] = useState<EmoteCatalog | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [unauthorized, setUnauthorized] = useState(false)
  const [loading, setLoading] = useState(false)
  const [generation, setGeneration] = useState(0)

  useEffect(() => {
    if (api === null) return
    let cancelled = false
    setLoading(true)
    api.listEmotes().then(
      (next) => {
        if (cancelled) return
        setCatalog(next)
        setError(null)
        setUnauthorized(false)
        setLoading(false)
      },
      (err: unknown) => {
        if (cancelled) return
        setError(err instanceof Error ? err.message : String(err))
        setUnauthorized(isUnauthorized(err))
        setLoading(false)
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, generation])

  const reload = useCallback(() => setGeneration((g) => g + 1), [])
  return { catalog, error, unauthorized, loading, reload }
}
