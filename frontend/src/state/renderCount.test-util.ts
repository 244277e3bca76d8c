// Counts the renders of components, for tests that check what a change
// re-renders. A test swaps a component module for a counting copy with
// vi.mock (each importer then gets the copy):
//
//   vi.mock('../components/Sidebar', async (orig) =>
//     (await import('./renderCount.test-util')).counting(await orig(), 'Sidebar'))
//
// The copy calls the original function inside its own render, so it renders
// exactly when the original would, memo (and its comparison) included.

import { memo, type ComponentType } from 'react'

export interface Render {
  component: string
  /** For components rendered once per item: the item (a message's key). */
  key?: string
}

export const renders: Render[] = []

/** How many renders of component (of the item key, when given) were logged. */
export function rendersOf(component: string, key?: string): number {
  return renders.filter((r) => r.component === component && (key === undefined || r.key === key)).length
}

/** The components that rendered, with how often, e.g. {MessageBubble: 1}. */
export function renderCounts(): Record<string, number> {
  const out: Record<string, number> = {}
  for (const r of renders) out[r.component] = (out[r.component] ?? 0) + 1
  return out
}

export function resetRenders(): void {
  renders.length = 0
}

type AnyProps = Record<string, unknown>
type Render_ = (props: AnyProps) => unknown

interface MemoType {
  $$typeof: symbol
  type: Render_
  compare: ((a: AnyProps, b: AnyProps) => boolean) | null
}

const MEMO = Symbol.for('react.memo')

function isMemo(c: unknown): c is MemoType {
  return typeof c === 'object' && c !== null && (c as { $$typeof?: unknown }).$$typeof === MEMO
}

/** The item a render is for: a message's key, or a conversation's id. */
function itemKey(props: AnyProps): string | undefined {
  const message = props.message as { key?: unknown } | undefined
  if (typeof message?.key === 'string') return message.key
  const conversation = props.conversation as { id?: unknown } | undefined
  if (typeof conversation?.id === 'string') return conversation.id
  return undefined
}

function countingFunction(name: string, fn: Render_): Render_ {
  const counted = (props: AnyProps) => {
    const key = itemKey(props)
    renders.push(key === undefined ? { component: name } : { component: name, key })
    return fn(props)
  }
  Object.defineProperty(counted, 'name', { value: name })
  return counted
}

/** mod (a module) with its export `name` (a function component, or a memo of one) replaced by a counting copy. */
export function counting(mod: unknown, name: string): Record<string, unknown> {
  const exports = mod as Record<string, unknown>
  const component = exports[name]
  let copy: unknown
  if (isMemo(component)) {
    copy = memo(countingFunction(name, component.type) as ComponentType<AnyProps>, component.compare ?? undefined)
  } else if (typeof component === 'function') {
    copy = countingFunction(name, component as Render_)
  } else {
    throw new Error(`${name} is not a component`)
  }
  return { ...exports, [name]: copy }
}
