// The confinement line under Settings › Shell access, in a (fake) document: each
// level in words with the server's reason, and nothing from a server that does not say.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentStatus } from '../api'
import { installFakeBrowser, type FakeBrowser } from '../state/fakeDom.test-util'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root
type Status = Pick<AgentStatus, 'confinement' | 'confinementReason'>

describe('ConfinementStatus', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let ConfinementStatus: typeof import('./ConfinementStatus').ConfinementStatus

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    ConfinementStatus = (await import('./ConfinementStatus')).ConfinementStatus
    root = createRoot(browser.container as unknown as Element)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const show = (status: Status | null) => React.act(() => root.render(React.createElement(ConfinementStatus, { status })))
  const line = () => browser.container.byTestId('confinement-status')

  it.each([
    ['full', 'Agent commands: confined.', false],
    ['partial', 'Agent commands: partly confined.', true],
    ['none', 'Agent commands: not confined.', true],
  ] as const)('says %s in words, with the reason', async (level, words, grantsOff) => {
    await show({ confinement: level, confinementReason: 'Because of the kernel.' })
    expect(line()).toHaveLength(1)
    const el = line()[0]!
    expect(el.getAttribute('data-level')).toBe(level)
    expect(el.textContent).toContain(words)
    expect(el.textContent).toContain('Because of the kernel.')
    expect(el.textContent.includes('standing grants are off')).toBe(grantsOff)
  })

  it('shows nothing when the server does not say', async () => {
    await show({})
    expect(line()).toHaveLength(0)
    await show(null)
    expect(line()).toHaveLength(0)
  })
})
