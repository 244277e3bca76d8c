// Keeps <html data-theme> in step with ui.theme: from GET /api/config once
// the API answers (main.tsx applies the last choice before that), and whenever the config watcher says a
// ui setting changed, by hand or from any window.

import { useEffect, useState } from 'react'
import type { ApiClient, Unsubscribe } from '../api'
import { safeLocalStorage } from '../api/connection'
import { applyTheme, touchesTheme } from './theme'

export function useTheme(
  api: ApiClient | null,
  apiReady: boolean,
  onConfigChanged: (fn: (paths: string[]) => void) => Unsubscribe,
): void {
  const [generation, setGeneration] = useState(0)

  useEffect(
    // No paths: anything may have changed (the page missed /ws frames).
    () => onConfigChanged((paths) => (paths.length === 0 || touchesTheme(paths)) && setGeneration((n) => n + 1)),
    [onConfigChanged],
  )

  useEffect(() => {
    if (api === null || !apiReady) return
    let cancelled = false
    api.getConfig().then(
      (snap) => {
        if (!cancelled) applyTheme(snap.config.ui.theme, document.documentElement, safeLocalStorage())
      },
      (err: unknown) => {
        if (!cancelled) console.warn('wisp: cannot load the theme', err)
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, apiReady, generation])
}
