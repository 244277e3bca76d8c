// The export buttons and the import picker in a (fake) document: what they ask
// for, what they say while busy, and the outcome or the refusal they show.

import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, type ExportFormat, type ImportResult } from '../api'
import type { ExportOutcome } from '../state/archive'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, selectOption } from '../state/fakeEvents.test-util'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

/** A macrotask: the promises an action started have settled. */
const turn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/** A promise the test settles. */
function pending<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}

describe('export and import controls', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    root = createRoot(browser.container as unknown as Element)
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
  const c = () => browser.container
  const all = (testId: string) => c().byTestId(testId)
  const one = (testId: string): FakeElement => {
    const found = all(testId)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }

  it('exports as JSON or Markdown and says where the file went', async () => {
    const { ExportActions } = await import('./ExportActions')
    const asked: ExportFormat[] = []
    let next = pending<ExportOutcome>()
    const onExport = (format: ExportFormat) => (asked.push(format), next.promise)
    await act(() => root.render(React.createElement(ExportActions, { what: 'this conversation', onExport, testId: 'ex' })))
    expect(one('ex-json').getAttribute('aria-label')).toBe('Export this conversation as JSON')
    expect(one('ex-md').textContent).toBe('Markdown')

    await act(() => click(c(), one('ex-md')))
    expect(asked).toEqual(['md'])
    expect(one('ex-md').textContent).toBe('Exporting…')
    expect(one('ex-json').hasAttribute('disabled')).toBe(true)
    expect(one('ex').getAttribute('aria-busy')).toBe('true')
    await act(() => next.resolve({ kind: 'downloaded', filename: 'wisp-chat.md' }))
    expect(one('ex-status').textContent).toBe('Downloaded wisp-chat.md')
    expect(one('ex-status').getAttribute('role')).toBe('status')
    expect(one('ex-json').hasAttribute('disabled')).toBe(false)

    next = pending<ExportOutcome>()
    await act(() => click(c(), one('ex-json')))
    expect(all('ex-status')).toHaveLength(0)
    await act(() => next.reject(new ApiError(404, 'conversation not found')))
    expect(one('ex-status').textContent).toBe('Export failed: conversation not found')
    expect(one('ex-status').getAttribute('role')).toBe('alert')
    expect(asked).toEqual(['md', 'json'])

    // The JSON with the attached files beside it.
    expect(one('ex-zip').getAttribute('aria-label')).toBe('Export this conversation as ZIP')
    next = pending<ExportOutcome>()
    await act(() => click(c(), one('ex-zip')))
    await act(() => next.resolve({ kind: 'downloaded', filename: 'wisp-chat.zip' }))
    expect(asked).toEqual(['md', 'json', 'zip'])
    expect(one('ex-status').textContent).toBe('Downloaded wisp-chat.zip')
  })

  async function pick(input: FakeElement, file: Blob & { name?: string }) {
    Object.assign(input, { files: [file] })
    await act(() => selectOption(c(), input, 'C:\\fakepath\\conversations.json'))
  }

  it('imports the file picked and tells what came in', async () => {
    const { ImportForm } = await import('./ImportForm')
    const files: Blob[] = []
    let next = pending<ImportResult>()
    const onImport = (file: Blob) => (files.push(file), next.promise)
    await act(() => root.render(React.createElement(ImportForm, { onImport })))
    const input = one('import-file')
    expect(input.getAttribute('accept')).toBe('.json,.zip,application/json,application/zip')

    const file = new Blob(['[]'])
    await pick(input, file)
    expect(files).toEqual([file])
    expect(one('import').getAttribute('aria-busy')).toBe('true')
    expect(c().textContent).toContain('Importing…')
    await act(() =>
      next.resolve({
        imported: 2,
        skipped: 1,
        conversations: ['a', 'b'],
        failed: [{ id: 'c', title: 'Clash', error: 'an id is taken' }],
      }),
    )
    const shown = one('import-result')
    expect(shown.textContent).toContain(
      'Imported 2 conversations. 1 conversation was already here and left as it was. 1 conversation could not be imported.',
    )
    expect(shown.textContent).toContain('Clash: an id is taken')
    expect(one('import').getAttribute('aria-busy')).toBe('false')
    expect(input.value).toBe('')

    next = pending<ImportResult>()
    await pick(input, new Blob(['{"format":"x"}']))
    await act(() => next.reject(new ApiError(400, 'format "x" is not a Wisp export ("wisp-export")')))
    expect(all('import-result')).toHaveLength(0)
    expect(one('import-error').textContent).toBe('Import failed: format "x" is not a Wisp export ("wisp-export")')
  })

  it('refuses a file too big for the server without sending it', async () => {
    const { ImportForm } = await import('./ImportForm')
    const files: Blob[] = []
    await act(() =>
      root.render(React.createElement(ImportForm, { onImport: async (f: Blob) => (files.push(f), Promise.reject(new Error('sent'))) })),
    )
    const huge = { size: 64 * 1024 * 1024 + 1 } as Blob
    await pick(one('import-file'), huge)
    expect(files).toEqual([])
    expect(one('import-error').textContent).toBe('Import failed: the file is larger than 64 MiB')
  })
})
