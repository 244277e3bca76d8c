// "Undo this edit" in a (fake) document: it shows for the edit a call made (as
// the server says, so a reload shows the same), undoes it, says why the server
// refused, and shows an edit undone before, or kept without undo, as such. The
// grant labels of the new kinds are here too.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { FileEdit } from '../api/restEdits'
import { installFakeBrowser, type FakeBrowser } from '../state/fakeDom.test-util'
import { click } from '../state/fakeEvents.test-util'
import type { EditsApi } from './EditUndo'
import { grantLabel } from './ShellGrants'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

const edit: FileEdit = {
  id: 'ed_1',
  runId: 'run-1',
  callId: 'call_1',
  conversationId: 'c1',
  path: '/home/ada/project/notes.md',
  created: false,
  undoable: true,
  undoneAt: null,
  createdAt: '2026-11-28T09:00:00.000Z',
}

describe('EditUndo', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let EditUndo: typeof import('./EditUndo').EditUndo

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    EditUndo = (await import('./EditUndo')).EditUndo
    root = createRoot(browser.container as unknown as Element)
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const show = async (client: EditsApi) => {
    await React.act(async () => {
      root.render(React.createElement(EditUndo, { client, callId: 'call_1' }))
      await Promise.resolve()
    })
  }
  const undoBox = () => browser.container.byTestId('edit-undo')

  it('undoes the edit of its call', async () => {
    const client: EditsApi = {
      ofCall: vi.fn(() => Promise.resolve([edit])),
      undo: vi.fn(() => Promise.resolve({ ...edit, undoneAt: '2026-11-28T09:01:00.000Z' })),
    }
    await show(client)
    expect(client.ofCall).toHaveBeenCalledWith('call_1', expect.anything())
    const button = browser.container.byTestId('undo-edit')[0]!
    expect(button.textContent).toBe('Undo this edit')
    await React.act(async () => {
      click(browser.container, button)
      await Promise.resolve()
    })
    expect(client.undo).toHaveBeenCalledWith('ed_1')
    expect(undoBox()[0]?.getAttribute('data-state')).toBe('undone')
    expect(undoBox()[0]?.textContent).toBe('Undone: the file is as it was')
  })

  it('says why an undo was refused, and lets the user try again', async () => {
    const client: EditsApi = {
      ofCall: () => Promise.resolve([edit]),
      undo: () => Promise.reject(new Error('~/project/notes.md changed since this edit: undoing it would lose those changes')),
    }
    await show(client)
    await React.act(async () => {
      click(browser.container, browser.container.byTestId('undo-edit')[0]!)
      await Promise.resolve()
    })
    expect(undoBox()[0]?.getAttribute('data-state')).toBe('refused')
    expect(browser.container.byTestId('undo-error')[0]?.textContent).toBe(
      'Not undone: ~/project/notes.md changed since this edit: undoing it would lose those changes',
    )
    expect(browser.container.byTestId('undo-edit')[0]?.hasAttribute('disabled')).toBe(false)
  })

  it('shows an edit undone before, one without undo, and nothing for a call that edited nothing', async () => {
    await show({ ofCall: () => Promise.resolve([{ ...edit, created: true, undoneAt: '2026-11-28T09:01:00.000Z' }]), undo: vi.fn() })
    expect(undoBox()[0]?.textContent).toBe('Undone: the file was removed')
    await React.act(() => root.unmount())
    root = (await import('react-dom/client')).createRoot(browser.container as unknown as Element)
    await show({ ofCall: () => Promise.resolve([{ ...edit, undoable: false }]), undo: vi.fn() })
    expect(undoBox()[0]?.getAttribute('data-state')).toBe('no-undo')
    await React.act(() => root.unmount())
    root = (await import('react-dom/client')).createRoot(browser.container as unknown as Element)
    await show({ ofCall: () => Promise.resolve([]), undo: vi.fn() })
    expect(undoBox()).toHaveLength(0)
  })
})

describe('grantLabel', () => {
  it('names what each kind of grant lets Wisp do', () => {
    const g = (kind: 'shell' | 'mcp' | 'web' | 'file_read' | 'file_edit', base: string) =>
      grantLabel({ id: 'g', kind, base, createdAt: '2026-11-28T09:00:00.000Z' }).label
    expect([g('shell', 'git'), g('mcp', 'gh.x'), g('web', 'example.com'), g('file_read', '/p'), g('file_edit', '/p')]).toEqual([
      'Command',
      'Tool',
      'Site',
      'Read files',
      'Edit files',
    ])
  })
})
