// The colour theme (ui.theme): "system" follows prefers-color-scheme, "light"
// and "dark" set data-theme on <html>, which styles/tokens.css honours. The last
// choice is remembered in localStorage so a reload starts in it before the
// config has loaded.

import { isThemeChoice, type ThemeChoice } from '../api'

export const THEME_STORAGE_KEY = 'wisp.theme'

type ThemeRoot = Pick<HTMLElement, 'dataset'>
type ThemeStorage = Pick<Storage, 'getItem' | 'setItem'>

export function applyTheme(theme: ThemeChoice, root: ThemeRoot, storage?: ThemeStorage): void {
  if (theme === 'system') delete root.dataset.theme
  else root.dataset.theme = theme
  try {
    storage?.setItem(THEME_STORAGE_KEY, theme)
  } catch {
    // storage full or blocked: the theme lasts for this page only
  }
}

export function storedTheme(storage?: Pick<Storage, 'getItem'>): ThemeChoice {
  const value = storage?.getItem(THEME_STORAGE_KEY)
  return isThemeChoice(value) ? value : 'system'
}

/** Whether a config-changed frame may have changed the theme. */
export function touchesTheme(paths: string[]): boolean {
  return paths.some((p) => p === 'ui' || p.startsWith('ui.'))
}
