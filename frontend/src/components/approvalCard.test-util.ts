// The approval cards in a (fake) document, for their tests: mounts ApprovalCard
// (which draws a shell command's card or an MCP tool's), finds elements by test id,
// and records the answers given.

import { vi } from 'vitest'
import type { ApprovalCard as Card } from '../state/approvals'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import type { DecideFn } from './ApprovalParts'

type ReactModule = typeof import('react')

export interface CardHarness {
  browser: FakeBrowser
  React: ReactModule
  onDecide: ReturnType<typeof vi.fn<DecideFn>>
  /** Draws the card (inside act; await it). */
  show(card: Card): unknown
  /** The one element with testId (within), or an error naming how many there are. */
  one(testId: string, within?: FakeElement): FakeElement
  close(): Promise<void>
}

/** mountCards installs a fake browser and a React root for approval cards. */
export async function mountCards(): Promise<CardHarness> {
  const browser = installFakeBrowser()
  const React = await import('react')
  const { createRoot } = await import('react-dom/client')
  const { ApprovalCard } = await import('./ApprovalCard')
  const root = createRoot(browser.container as unknown as Element)
  const onDecide = vi.fn<DecideFn>()
  return {
    browser,
    React,
    onDecide,
    show: (card) => React.act(() => root.render(React.createElement('ul', null, React.createElement(ApprovalCard, { card, onDecide })))),
    one(testId, within = browser.container) {
      const found = within.byTestId(testId)
      if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
      return found[0]!
    },
    async close() {
      await React.act(() => root.unmount())
      browser.uninstall()
    },
  }
}
