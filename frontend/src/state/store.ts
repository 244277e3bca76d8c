// The one kind of store of the UI: a value outside React that changes by
// set(), tells its subscribers, and is read from components with useStore
// and a selector, so a component re-renders only when the slice it selects
// changes. Every piece of server state (app state, approvals, MCP servers,
// streaming replies, the open chat, …) lives in a Store; components read
// them through the stable store objects of WispProvider's context and never
// fetch themselves.

import { useCallback, useRef, useSyncExternalStore } from 'react'

export type Unsubscribe = () => void

export class Store<S> {
  private state: S
  private readonly listeners = new Set<() => void>()

  constructor(initial: S) {
    this.state = initial
  }

  /** The current state. */
  readonly get = (): S => this.state

  /**
   * Replaces the state with next, or with fn(state); a patch object (for an
   * object state) is merged. Subscribers hear of it only when it changed.
   */
  set(next: S | ((prev: S) => S)): void {
    const value = typeof next === 'function' ? (next as (prev: S) => S)(this.state) : next
    if (Object.is(value, this.state)) return
    this.state = value
    for (const fn of [...this.listeners]) fn()
  }

  /** Merges fields into an object state (a no-op when none of them changes). */
  patch(fields: Partial<S>): void {
    const prev = this.state
    let changed = false
    for (const k of Object.keys(fields) as (keyof S)[]) {
      if (!Object.is(prev[k], fields[k])) changed = true
    }
    if (changed) this.set({ ...prev, ...fields })
  }

  /** Calls fn after every change; returns the function that stops it. */
  readonly subscribe = (fn: () => void): Unsubscribe => {
    this.listeners.add(fn)
    return () => {
      this.listeners.delete(fn)
    }
  }
}

/** A store that never changes, for hooks used outside a provider. */
export function constantStore<S>(value: S): Store<S> {
  return new Store(value)
}

const identity = <T,>(v: T) => v

/**
 * The slice of store that selector picks; the component re-renders only when
 * it changes (by equal, Object.is unless given). A selector that builds a new
 * object each time needs an equal (shallowEqual) so it does not re-render on
 * every change of the store.
 */
export function useStore<S, T = S>(
  store: Store<S>,
  selector: (state: S) => T = identity as (state: S) => T,
  equal: (a: T, b: T) => boolean = Object.is,
): T {
  const last = useRef<{ state: S; selector: (state: S) => T; value: T } | null>(null)
  const getSnapshot = useCallback(() => {
    const state = store.get()
    const prev = last.current
    if (prev !== null && Object.is(prev.state, state) && prev.selector === selector) return prev.value
    const value = selector(state)
    // An equal slice keeps the value the component has, so it does not render again.
    const kept = prev !== null && equal(prev.value, value) ? prev.value : value
    last.current = { state, selector, value: kept }
    return kept
  }, [store, selector, equal])
  return useSyncExternalStore(store.subscribe, getSnapshot)
}

/** Equal when both have the same keys with Object.is-equal values. */
export function shallowEqual<T>(a: T, b: T): boolean {
  if (Object.is(a, b)) return true
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false
  const ka = Object.keys(a)
  const kb = Object.keys(b)
  if (ka.length !== kb.length) return false
  const ra = a as Record<string, unknown>
  const rb = b as Record<string, unknown>
  return ka.every((k) => Object.prototype.hasOwnProperty.call(rb, k) && Object.is(ra[k], rb[k]))
}
