// Keeps <html data-theme> in step with ui.theme: from GET /api/config once
// the API answers (main.tsx applies the last choice before that), and whenever the config watcher says a
// ui setting changed, by hand or from any window. Returns the ui settings
// it read (null before the first answer): ui.notifications is read here too.

import { useEffect, useState } from 'react'
import type { ApiClient, Unsubscribe, WispConfig } from '../api'
import { safeLocalStorage } from '../api/connection'
import { applyTheme, touchesTheme } from './theme'

export function useTheme(
  api: ApiClient | null,
  apiReady: boolean,
  onConfigChanged: (fn: (paths: string[]) => void) => Unsubscribe,
): WispConfig['ui'] | null {
  const [generation, setGeneration] = useState(0)
  const [ui, setUi] = useState<WispConfig['ui'] | null>(null)

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
        if (cancelled) return
        applyTheme(snap.config.ui.theme, document.documentElement, safeLocalStorage())
        setUi((prev) => (prev !== null && sameUi(prev, snap.config.ui) ? prev : snap.config.ui))
      },
      (err: unknown) => {
        if (!cancelled) console.warn('wisp: cannot load the theme', err)
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, apiReady, generation])
  return ui
}

function sameUi(a: WispConfig['ui'], b: WispConfig['ui']): boolean {
  return a.theme === b.theme && a.notifications === b.notifications
}
