// Keeps <html data-theme> in step with ui.theme: the page's ui store
// (WispPage.ui, from GET /api/config) loads once the API answers (main.tsx
// applies the last choice before that), and again whenever the config
// watcher says a ui setting changed, by hand or from any window. Returns
// whether ui.notifications is on (off before the first answer).

import { useEffect } from 'react'
import type { ApiClient } from '../api'
import { safeLocalStorage } from '../api/connection'
import { useStore } from './store'
import { applyTheme, touchesTheme } from './theme'
import type { WispPage } from './wispPage'

export function useTheme(page: WispPage, api: ApiClient | null, apiReady: boolean): boolean {
  // No paths: anything may have changed (the page missed /ws frames).
  useEffect(() => page.onConfigChanged((paths) => (paths.length === 0 || touchesTheme(paths)) && void page.ui.load()), [page])
  useEffect(() => {
    if (api !== null && apiReady) void page.ui.load()
  }, [page, api, apiReady])

  const ui = useStore(page.ui, (s) => s.value)
  useEffect(() => {
    if (ui !== null) applyTheme(ui.theme, document.documentElement, safeLocalStorage())
  }, [ui])
  return ui?.notifications === true
}
