import { describe, expect, it } from 'vitest'
import { THEME_STORAGE_KEY, applyTheme, storedTheme, touchesTheme } from './theme'

function memoryStorage() {
  const items = new Map<string, string>()
  return {
    items,
    getItem: (k: string) => items.get(k) ?? null,
    setItem: (k: string, v: string) => void items.set(k, v),
  }
}

describe('theme', () => {
  it('sets data-theme for light and dark and removes it for system', () => {
    const root = { dataset: {} as DOMStringMap }
    const storage = memoryStorage()
    applyTheme('light', root, storage)
    expect(root.dataset.theme).toBe('light')
    applyTheme('dark', root, storage)
    expect(root.dataset.theme).toBe('dark')
    expect(storage.items.get(THEME_STORAGE_KEY)).toBe('dark')
    applyTheme('system', root, storage)
    expect('theme' in root.dataset).toBe(false)
    expect(storedTheme(storage)).toBe('system')
  })

  it('reads back only known themes', () => {
    const storage = memoryStorage()
    expect(storedTheme(storage)).toBe('system')
    storage.items.set(THEME_STORAGE_KEY, 'light')
    expect(storedTheme(storage)).toBe('light')
    storage.items.set(THEME_STORAGE_KEY, 'sepia')
    expect(storedTheme(storage)).toBe('system')
    expect(storedTheme(undefined)).toBe('system')
  })

  it('survives a storage that throws', () => {
    const root = { dataset: {} as DOMStringMap }
    const storage = {
      getItem: () => null,
      setItem: () => {
        throw new Error('quota')
      },
    }
    expect(() => applyTheme('dark', root, storage)).not.toThrow()
    expect(root.dataset.theme).toBe('dark')
  })

  it('notices ui changes only', () => {
    expect(touchesTheme(['ui.theme'])).toBe(true)
    expect(touchesTheme(['character.name', 'ui'])).toBe(true)
    expect(touchesTheme(['character.name', 'uiX.y'])).toBe(false)
    expect(touchesTheme([])).toBe(false)
  })
})
