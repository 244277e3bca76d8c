// The tool card of a reply in a (fake) document: what the model passed and
// what came back, with hidden and direction-changing characters as escapes.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolView } from '../state/chat'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

describe('ToolCard', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let ToolCard: typeof import('./ToolCard').ToolCard

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    ToolCard = (await import('./ToolCard')).ToolCard
    root = createRoot(browser.container as unknown as Element)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const show = (tool: ToolView) => React.act(() => root.render(React.createElement(ToolCard, { tool })))
  const card = (): FakeElement => browser.container.byTestId('tool-card')[0]!
  const pres = () => card().findAll((e) => e.tagName === 'PRE')

  it('shows arguments and result as they are when nothing is hidden', async () => {
    await show({ callId: 'c1', name: 'RUN_SHELL', arguments: { command: 'ls\nrm x' }, status: 'completed', result: 'a\nb' })
    expect(pres().map((p) => p.textContent)).toEqual(['{\n  "command": "ls\\nrm x"\n}', 'a\nb'])
    expect(card().findAll((e) => e.getAttribute('data-hidden-char') !== null)).toHaveLength(0)
  })

  it('draws hidden characters in the name, arguments, result and error as escapes', async () => {
    await show({
      callId: 'c1',
      name: 'RUN\u200bSHELL',
      arguments: { command: 'ls # \u202e hidden' },
      status: 'failed',
      result: 'out\u2066put',
      error: 'no\u00a0such',
    })
    expect(card().findAll((e) => e.getAttribute('class') === 'tool-name')[0]?.textContent).toBe('RUN\\u200bSHELL')
    expect(pres().map((p) => p.textContent)).toEqual(['{\n  "command": "ls # \\u202e hidden"\n}', 'out\\u2066put', 'no\\u00a0such'])
    expect(card().findAll((e) => e.getAttribute('data-hidden-char') !== null).map((e) => e.getAttribute('data-hidden-char'))).toEqual([
      'u+200b',
      'u+202e',
      'u+2066',
      'u+00a0',
    ])
    expect(card().textContent).not.toMatch(/[\u00a0\u200b\u202e\u2066]/)
  })
})
