// A task's own grants in its row of Settings › Tasks, in a (fake) document
// over the page's TaskStore with a fake API: listed in words, Remove and
// "Add a grant" send the whole new list, a base refused here is never sent,
// the server's refusal shows inline, and everything is disabled while saving.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type Task } from '../api'
import { onceTaskExample, taskExample } from '../api/tasks.test-util'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, selectOption, typeInto } from '../state/fakeEvents.test-util'
import type { TasksApi } from '../state/taskStore'
import { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

describe('TaskGrants', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let page: WispPage
  let api: { [K in keyof TasksApi]: ReturnType<typeof vi.fn<TasksApi[K]>> }
  const tasks = (): Task[] => [
    { ...taskExample, grants: [{ kind: 'shell', base: 'git' }, { kind: 'file_read', base: '/home/ada/project' }, { kind: 'web', base: 'example.com' }] },
    onceTaskExample,
  ]

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    const { TasksSettings } = await import('./TasksSettings')
    const { WispContext } = await import('../state/wispContext')
    page = new WispPage(() => () => undefined)
    api = {
      list: vi.fn<TasksApi['list']>(async () => tasks()),
      create: vi.fn<TasksApi['create']>(async () => taskExample),
      update: vi.fn<TasksApi['update']>(async (id, edit) => ({ ...tasks().find((t) => t.id === id)!, grants: edit.grants ?? [] })),
      run: vi.fn<TasksApi['run']>(async () => taskExample),
      remove: vi.fn<TasksApi['remove']>(async () => undefined),
    }
    page.tasks.setApi(api)
    root = createRoot(browser.container as unknown as Element)
    await React.act(async () => root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(TasksSettings))))
    await React.act(async () => vi.waitFor(() => expect(page.tasks.get().tasks).not.toBeNull()))
  })
  afterEach(async () => {
    await React.act(() => root.unmount())
    browser.uninstall()
  })

  const all = (testId: string, within: FakeElement = browser.container) => within.byTestId(testId)
  const one = (testId: string, within: FakeElement = browser.container): FakeElement => {
    const found = all(testId, within)
    if (found.length !== 1) throw new Error(`expected one ${testId}, found ${found.length}`)
    return found[0]!
  }
  const row = (id: string): FakeElement => {
    const found = all('task-row').find((r) => r.getAttribute('data-task-id') === id)
    if (found === undefined) throw new Error(`no row of ${id}`)
    return found
  }
  const press = (el: FakeElement) => React.act(async () => click(browser.container, el))
  const type = (el: FakeElement, text: string) => React.act(() => typeInto(browser.container, el, text))
  const words = (id: string) => all('task-grant-words', row(id)).map((e) => e.textContent)

  it('lists a task’s grants in words, and says when it has none', () => {
    expect(words('tk_1')).toEqual(['run git', 'read files in ~/project', 'fetch pages of example.com'])
    expect(row('tk_1').textContent).toContain('Without asking, its runs may:')
    expect(all('task-grant-remove', row('tk_1')).map((b) => b.getAttribute('aria-label'))).toEqual([
      'Remove: run git',
      'Remove: read files in ~/project',
      'Remove: fetch pages of example.com',
    ])
    expect(all('task-grant', row('tk_2'))).toEqual([])
    expect(one('task-grants-none', row('tk_2')).textContent).toMatch(/ask before every command/)
  })

  it('removes one grant by sending the others', async () => {
    await press(all('task-grant-remove', row('tk_1'))[1]!)
    expect(api.update.mock.calls).toEqual([
      ['tk_1', { grants: [{ kind: 'shell', base: 'git' }, { kind: 'web', base: 'example.com' }] }],
    ])
    expect(words('tk_1')).toEqual(['run git', 'fetch pages of example.com'])
  })

  it('adds a grant of the kind chosen, with its placeholder, and empties the input', async () => {
    const r = row('tk_2')
    expect(one('task-grant-base', r).getAttribute('placeholder')).toBe('git')
    await React.act(() => selectOption(browser.container, one('task-grant-kind', r), 'file_edit'))
    expect(one('task-grant-base', r).getAttribute('placeholder')).toBe('/home/you/project')
    await type(one('task-grant-base', r), ' /home/ada/notes ')
    await press(one('task-grant-add', r))
    expect(api.update.mock.calls).toEqual([['tk_2', { grants: [{ kind: 'file_edit', base: '/home/ada/notes' }] }]])
    expect(words('tk_2')).toEqual(['edit files in ~/notes'])
    expect(one('task-grant-base', row('tk_2')).value).toBe('')
  })

  it('adds on Enter in the input', async () => {
    await type(one('task-grant-base', row('tk_2')), 'ls')
    await React.act(async () => keyDown(browser.container, one('task-grant-base', row('tk_2')), 'Enter'))
    expect(api.update.mock.calls).toEqual([['tk_2', { grants: [{ kind: 'shell', base: 'ls' }] }]])
  })

  it('refuses a base of the wrong shape before sending, naming the input', async () => {
    const r = row('tk_2')
    await type(one('task-grant-base', r), 'git status')
    await press(one('task-grant-add', r))
    expect(api.update).not.toHaveBeenCalled()
    expect(one('task-grant-error', r).textContent).toMatch(/^A shell grant is one command name without spaces/)
    expect(one('task-grant-error', r).getAttribute('role')).toBe('alert')
    expect(one('task-grant-base', r).getAttribute('aria-invalid')).toBe('true')
  })

  it('shows the server’s refusal inline and keeps the input', async () => {
    api.update.mockRejectedValueOnce(new ApiError(400, 'grant base "x": one line of 1 to 512 characters'))
    await type(one('task-grant-base', row('tk_2')), 'ls')
    await press(one('task-grant-add', row('tk_2')))
    expect(one('task-grant-error', row('tk_2')).textContent).toBe('grant base "x": one line of 1 to 512 characters')
    expect(one('task-grant-base', row('tk_2')).value).toBe('ls')
    expect(all('task-grant', row('tk_2'))).toEqual([])
  })

  it('disables its controls while it saves', async () => {
    let answer!: (t: Task) => void
    api.update.mockReturnValueOnce(new Promise<Task>((res) => (answer = res)))
    await type(one('task-grant-base', row('tk_1')), 'ls')
    await press(one('task-grant-add', row('tk_1')))
    const r = row('tk_1')
    for (const id of ['task-grant-add', 'task-grant-base', 'task-grant-kind']) expect(one(id, r).hasAttribute('disabled'), id).toBe(true)
    expect(all('task-grant-remove', r).every((b) => b.hasAttribute('disabled'))).toBe(true)
    expect(one('task-grant-add', r).textContent).toBe('Saving…')
    await React.act(async () => answer({ ...tasks()[0]!, grants: [...tasks()[0]!.grants, { kind: 'shell', base: 'ls' }] }))
    expect(one('task-grant-add', row('tk_1')).hasAttribute('disabled')).toBe(false)
    expect(words('tk_1')).toEqual(['run git', 'read files in ~/project', 'fetch pages of example.com', 'run ls'])
  })
})
