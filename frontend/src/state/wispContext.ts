// The page's context: the one WispPage of this mount (its stores, chat
// controller and actions), an object that never changes, so providing it
// re-renders nothing. Components select what they show from its stores.

import { createContext, useContext } from 'react'
import type { ApiClient } from '../api'
import type { AppState } from './reducer'
import { useStore } from './store'
import type { WispPage } from './wispPage'

export const WispContext = createContext<WispPage | null>(null)

/** The page's stores and actions (stable: reading them re-renders nothing). */
export function useWisp(): WispPage {
  const value = useContext(WispContext)
  if (value === null) throw new Error('useWisp must be used inside <WispProvider>')
  return value
}

/** A slice of the app state; the component re-renders only when it changes (by equal, Object.is unless given). */
export function useAppState<T>(selector: (state: AppState) => T, equal?: (a: T, b: T) => boolean): T {
  return useStore(useWisp().app, selector, equal)
}

/** The API client once the server is known (null before). */
export function useApi(): ApiClient | null {
  return useStore(useWisp().api)
}
