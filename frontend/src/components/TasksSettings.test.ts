// Settings › Tasks in a (fake) document, over the page's TaskStore with a
// fake API: the list (prompt, schedule, next run, last result, the link that
// opens its conversation), Pause, Run now and Delete (asked again first), a
// frame's change shown at once; the create form's request, its inline errors
// (its own and the server's) and its disabled state while saving.

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, type Task } from '../api'
import { onceTaskExample, taskExample } from '../api/tasks.test-util'
import { installFakeBrowser, type FakeBrowser, type FakeElement } from '../state/fakeDom.test-util'
import { click, selectOption, typeInto } from '../state/fakeEvents.test-util'
import { routeFrame } from '../state/frameTable'
import type { TasksApi } from '../state/taskStore'
import { WispPage } from '../state/wispPage'

type ReactModule = typeof import('react')
type Root = import('react-dom/client').Root

function deferred<T>() {
  let resolve!: (v: T) => void
  let reject!: (e: unknown) => void
  const promise = new Promise<T>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

describe('TasksSettings', () => {
  let browser: FakeBrowser
  let React: ReactModule
  let root: Root
  let page: WispPage
  let onOpened: ReturnType<typeof vi.fn<() => void>>
  let api: { [K in keyof TasksApi]: ReturnType<typeof vi.fn<TasksApi[K]>> }

  beforeEach(async () => {
    browser = installFakeBrowser()
    React = await import('react')
    const { createRoot } = await import('react-dom/client')
    const { TasksSettings } = await import('./TasksSettings')
    const { WispContext } = await import('../state/wispContext')
    page = new WispPage(() => () => undefined)
    api = {
      list: vi.fn<TasksApi['list']>(async () => [taskExample, onceTaskExample]),
      create: vi.fn<TasksApi['create']>(async (req) => ({ ...taskExample, id: 'tk_new', prompt: req.prompt, lastRun: null })),
      update: vi.fn<TasksApi['update']>(async (id, edit) => ({ ...taskExample, id, paused: edit.paused ?? false })),
      run: vi.fn<TasksApi['run']>(async (id) => ({ ...taskExample, id })),
      remove: vi.fn<TasksApi['remove']>(async () => undefined),
    }
    page.tasks.setApi(api)
    onOpened = vi.fn<() => void>()
    root = createRoot(browser.container as unknown as Element)
    await React.act(async () =>
      root.render(React.createElement(WispContext.Provider, { value: page }, React.createElement(TasksSettings, { onOpened }))),
    )
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

  it('lists each task: prompt, schedule, next run, last result', () => {
    expect(all('task-row').map((r) => r.getAttribute('data-task-id'))).toEqual(['tk_1', 'tk_2'])
    const r = row('tk_1')
    expect(one('task-prompt', r).textContent).toBe(taskExample.prompt)
    expect(one('task-schedule', r).textContent).toBe('every weekday at 09:00')
    expect(one('task-next', r).textContent).toMatch(/^next (in|.* ago)/)
    const time = one('task-next', r).findAll((e) => e.tagName === 'TIME')[0]
    expect(time?.getAttribute('dateTime') ?? time?.getAttribute('datetime')).toBe(taskExample.nextRunAt)
    expect(one('task-run-status', r).textContent).toBe('done')
    expect(one('task-result', r).textContent).toBe('Two new files: notes.md and todo.txt.')
    expect(one('task-next', row('tk_2')).textContent).toBe('no next run')
    expect(one('task-last-run', row('tk_2')).textContent).toBe('Not run yet.')
  })

  it('opens the conversation of a task’s result, then closes the settings', async () => {
    const open = vi.spyOn(page.chat, 'open').mockImplementation(() => undefined)
    const link = one('task-open-conversation', row('tk_1'))
    expect(link.getAttribute('href')).toBe('#/c/c1')
    await press(link)
    expect(open.mock.calls).toEqual([['c1']])
    expect(onOpened).toHaveBeenCalledTimes(1)
  })

  it('pauses, runs now, and shows a refusal under the row', async () => {
    await press(one('task-pause', row('tk_1')))
    expect(api.update.mock.calls).toEqual([['tk_1', { paused: true }]])
    expect(row('tk_1').getAttribute('data-paused')).toBe('true')
    expect(one('task-pause', row('tk_1')).textContent).toBe('Resume')
    api.run.mockRejectedValueOnce(new ApiError(409, 'a run of this task is going'))
    await press(one('task-run', row('tk_2')))
    expect(api.run.mock.calls).toEqual([['tk_2']])
    expect(one('task-error', row('tk_2')).textContent).toBe('a run of this task is going')
  })

  it('shows a frame’s run at once, and disables Run now while it runs', async () => {
    const running: Task = { ...taskExample, lastRun: { ...taskExample.lastRun!, status: 'running', manual: true, result: '' } }
    await React.act(() => routeFrame(page, { type: 'task-updated', task: running }))
    expect(row('tk_1').getAttribute('data-run-status')).toBe('running')
    expect(one('task-run', row('tk_1')).hasAttribute('disabled')).toBe(true)
  })

  it('deletes only after it is asked again', async () => {
    await press(one('task-delete', row('tk_2')))
    expect(api.remove).not.toHaveBeenCalled()
    await press(one('task-delete-cancel', row('tk_2')))
    await press(one('task-delete', row('tk_2')))
    await press(one('task-delete-confirm', row('tk_2')))
    expect(api.remove.mock.calls).toEqual([['tk_2']])
    expect(all('task-row').map((r) => r.getAttribute('data-task-id'))).toEqual(['tk_1'])
  })

  it('creates a task from the form: every weekday at 09:00, to a new conversation', async () => {
    await type(one('task-prompt-input'), 'Say the word pineapple')
    expect(one('task-every-words').textContent).toBe('Runs every weekday at 09:00.')
    await press(one('task-create'))
    expect(api.create.mock.calls).toEqual([
      [{ prompt: 'Say the word pineapple', catchUp: true, rrule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0' }],
    ])
    expect(all('task-row').some((r) => r.getAttribute('data-task-id') === 'tk_new')).toBe(true)
    expect(one('task-prompt-input').value).toBe('')
    expect(one('task-form-status').textContent).toBe('Task created.')
  })

  it('sends a cron line, and shows the server’s refusal inline', async () => {
    api.create.mockRejectedValueOnce(new ApiError(400, 'cron: expected 5 fields, got 3'))
    await type(one('task-prompt-input'), 'Tidy up')
    await React.act(() => selectOption(browser.container, one('task-when'), 'cron'))
    await type(one('task-cron'), '0 9 *')
    await press(one('task-create'))
    expect(api.create.mock.calls[0]?.[0]).toEqual({ prompt: 'Tidy up', catchUp: true, cron: '0 9 *' })
    expect(one('task-form-error').textContent).toBe('cron: expected 5 fields, got 3')
    expect(one('task-form-error').getAttribute('role')).toBe('alert')
    expect(one('task-prompt-input').value).toBe('Tidy up')
  })

  it('refuses a draft without a prompt before sending, naming the input', async () => {
    await press(one('task-create'))
    expect(api.create).not.toHaveBeenCalled()
    expect(one('task-form-error').textContent).toBe('Say what the task should do.')
    expect(one('task-prompt-input').getAttribute('aria-invalid')).toBe('true')
  })

  it('disables the form while it saves', async () => {
    const answer = deferred<Task>()
    api.create.mockReturnValueOnce(answer.promise)
    await type(one('task-prompt-input'), 'Say the word pineapple')
    await press(one('task-create'))
    expect(one('task-create').hasAttribute('disabled')).toBe(true)
    expect(one('task-create').textContent).toBe('Creating…')
    expect(one('task-prompt-input').hasAttribute('disabled')).toBe(true)
    await React.act(async () => answer.resolve({ ...taskExample, id: 'tk_new' }))
    expect(one('task-create').hasAttribute('disabled')).toBe(false)
  })

  it('builds weekly and hourly rules from the builder', async () => {
    await type(one('task-prompt-input'), 'Water the plants')
    await React.act(() => selectOption(browser.container, one('task-every-kind'), 'weekly'))
    await press(one('task-day-MO'))
    await press(one('task-day-TH'))
    expect(one('task-every-words').textContent).toBe('Runs every Thursday at 09:00.')
    await press(one('task-create'))
    expect(api.create.mock.calls[0]?.[0]).toMatchObject({ rrule: 'FREQ=WEEKLY;BYDAY=TH;BYHOUR=9;BYMINUTE=0;BYSECOND=0' })
    await type(one('task-prompt-input'), 'Stretch')
    await React.act(() => selectOption(browser.container, one('task-every-kind'), 'hours'))
    await type(one('task-every-hours'), '3')
    await press(one('task-create'))
    expect(api.create.mock.calls[1]?.[0]).toMatchObject({ prompt: 'Stretch', rrule: 'FREQ=HOURLY;INTERVAL=3' })
  })
})
