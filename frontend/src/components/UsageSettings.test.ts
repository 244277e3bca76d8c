// Settings › Usage in a (fake) document: loads the last 30 days when shown,
// a row per day and model with the totals under them (unpriced calls said as
// such, never as free), and another period asks again.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApiClient, UsageReport } from '../api'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { selectOption } from '../state/fakeEvents.test-util'
import type { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))
const u = (input: number, output: number, cacheRead = 0) => ({
  inputTokens: input,
  outputTokens: output,
  cacheReadTokens: cacheRead,
  cacheWriteTokens: 0,
  promptTokens: input,
  completionTokens: output,
  totalTokens: input + output,
})

const report: UsageReport = {
  rows: [
    { day: '2026-11-28', model: 'gpt-4o-mini', usage: u(12_000, 800, 4000), costUsd: 0.0123, unpriced: 0, calls: 5 },
    { day: '2026-11-28', model: 'llama3.2', usage: u(3000, 200), costUsd: 0, unpriced: 2, calls: 2 },
    { day: '2026-11-27', model: 'gpt-4o-mini', usage: u(1000, 100), costUsd: 0.001, unpriced: 0, calls: 1 },
  ],
  total: u(16_000, 1100, 4000),
  costUsd: 0.0133,
}

describe('Settings › Usage', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let page: WispPage
  let asked: number[]

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    root = createRoot(browser.container as unknown as Element)
    const { WispPage } = await import('../state/wispPage')
    page = new WispPage()
    asked = []
    const api = {
      context: {
        getUsage: async (days: number) => {
          asked.push(days)
          return days === 7 ? { rows: [], total: u(0, 0), costUsd: 0 } : report
        },
      },
    } as unknown as ApiClient
    page.api.set(api)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const act = (fn: () => void | Promise<void> = () => undefined) =>
    React.act(async () => {
      await fn()
      await turn()
    })
  async function show(): Promise<void> {
    const { UsageSettings } = await import('./UsageSettings')
    const { WispContext } = await import('../state/wispContext')
    await act(() => root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(UsageSettings))))
  }
  const c = () => browser.container
  const cells = (row: FakeElement) => row.findAll((e) => e.tagName === 'TD' || e.tagName === 'td').map((td) => td.textContent)

  it('shows the last 30 days by day and model, with the totals', async () => {
    await show()
    expect(asked).toEqual([30])
    const rows = c().byTestId('usage-row')
    expect(rows.map(cells)).toEqual([
      ['2026-11-28', 'gpt-4o-mini', '5', '12,000', '800', '4,000', '$0.012'],
      ['2026-11-28', 'llama3.2', '2', '3,000', '200', '0', 'unpriced'],
      ['2026-11-27', 'gpt-4o-mini', '1', '1,000', '100', '0', '$0.001'],
    ])
    expect(cells(c().byTestId('usage-total')[0]!)).toEqual(['Total', '8', '16,000', '1,100', '4,000', '$0.013 + 2 unpriced'])
  })

  it('asks again for another period, and says when it had no calls', async () => {
    await show()
    await act(() => selectOption(c(), c().byTestId('usage-days')[0]!, '7'))
    expect(asked).toEqual([30, 7])
    expect(c().byTestId('usage-table')).toHaveLength(0)
    expect(c().byTestId('usage-empty')).toHaveLength(1)
  })
})
