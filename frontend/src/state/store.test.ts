import { afterEach, describe, expect, it } from 'vitest'
import { installFakeBrowser, type FakeBrowser } from './fakeDom.test-util'
import { shallowEqual, Store } from './store'

describe('Store', () => {
  it('tells its subscribers of a change, and only of a change', () => {
    const store = new Store({ a: 1, b: 'x' })
    let heard = 0
    const stop = store.subscribe(() => heard++)
    store.set((s) => ({ ...s, a: 2 }))
    store.patch({ b: 'x' })
    store.set(store.get())
    expect(heard).toBe(1)
    store.patch({ b: 'y' })
    expect(store.get()).toEqual({ a: 2, b: 'y' })
    expect(heard).toBe(2)
    stop()
    store.patch({ a: 3 })
    expect(heard).toBe(2)
  })

  it('compares shallowly', () => {
    expect(shallowEqual({ a: 1, b: 'x' }, { a: 1, b: 'x' })).toBe(true)
    expect(shallowEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(shallowEqual({ a: {} }, { a: {} })).toBe(false)
    expect(shallowEqual(null, null)).toBe(true)
  })
})

describe('useStore', () => {
  let browser: FakeBrowser | null = null
  afterEach(() => {
    browser?.uninstall()
    browser = null
  })

  it('re-renders a component only when the slice it selects changes', async () => {
    browser = installFakeBrowser()
    const React = await import('react')
    const { createRoot } = await import('react-dom/client')
    const { useStore } = await import('./store')
    const store = new Store({ status: 'running', messages: ['hi'] })
    const renders = { status: 0, messages: 0, pair: 0 }
    function Status() {
      renders.status++
      return React.createElement('p', null, useStore(store, (s) => s.status))
    }
    function Messages() {
      renders.messages++
      return React.createElement('p', null, useStore(store, (s) => s.messages).join(','))
    }
    // A selector that builds an object each time needs its equal.
    function Pair() {
      renders.pair++
      const { n } = useStore(store, (s) => ({ n: s.messages.length }), shallowEqual)
      return React.createElement('p', null, n)
    }
    const root = createRoot(browser.container as unknown as Element)
    await React.act(() => root.render([Status, Messages, Pair].map((c) => React.createElement(c, { key: c.name }))))
    expect(renders).toEqual({ status: 1, messages: 1, pair: 1 })

    await React.act(() => store.patch({ status: 'paused' }))
    expect(renders).toEqual({ status: 2, messages: 1, pair: 1 })
    expect(browser.container.textContent).toBe('pausedhi1')

    await React.act(() => store.patch({ messages: ['hi', 'there'] }))
    expect(renders).toEqual({ status: 2, messages: 2, pair: 2 })
    expect(browser.container.textContent).toBe('pausedhi,there2')
    await React.act(() => root.unmount())
  })
})
