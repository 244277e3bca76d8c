// The page's TaskStore over a fake API: the list in the section's order, the
// task-updated and task-deleted frames through the frame table, frames that
// come while the list loads, answers overtaken by a frame, a late frame of a
// deleted task, and the requests of the section's buttons.

import { describe, expect, it, vi } from 'vitest'
import { ApiError, type Task } from '../api'
import { onceTaskExample, taskExample } from '../api/tasks.test-util'
import { routeFrame } from './frameTable'
import { sortTasks, type TasksApi } from './taskStore'
import { WispPage } from './wispPage'

const task = (id: string, over: Partial<Task> = {}): Task => ({ ...taskExample, id, ...over })

function deferred<T>() {
  let resolve!: (v: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

function setup(list: Task[] = [taskExample, onceTaskExample]) {
  const api = {
    list: vi.fn<TasksApi['list']>(async () => list),
    create: vi.fn<TasksApi['create']>(async (req) => task('tk_new', { prompt: req.prompt })),
    update: vi.fn<TasksApi['update']>(async (id, edit) => task(id, { paused: edit.paused ?? false })),
    run: vi.fn<TasksApi['run']>(async (id) => task(id)),
    remove: vi.fn<TasksApi['remove']>(async () => undefined),
  }
  const page = new WispPage(() => () => undefined)
  page.tasks.setApi(api)
  return { api, page, store: page.tasks, ids: () => page.tasks.get().tasks?.map((t) => t.id) }
}

describe('sortTasks', () => {
  it('puts tasks by next run, those with none after, paused ones last', () => {
    const list = [
      task('paused', { paused: true, nextRunAt: '2026-01-01T00:00:00Z' }),
      task('none', { nextRunAt: null }),
      task('late', { nextRunAt: '2026-12-02T09:00:00Z' }),
      task('soon', { nextRunAt: '2026-12-01T09:00:00Z' }),
    ]
    expect(sortTasks(list).map((t) => t.id)).toEqual(['soon', 'late', 'none', 'paused'])
  })
})

describe('TaskStore', () => {
  it('loads the list, and says why it could not', async () => {
    const { api, store, ids } = setup()
    expect(store.get().tasks).toBeNull()
    await store.load()
    expect(ids()).toEqual(['tk_1', 'tk_2'])
    api.list.mockRejectedValueOnce(new ApiError(503, 'the store is closed'))
    await store.load()
    expect(store.get().loadError).toBe('the store is closed')
  })

  it('applies task-updated and task-deleted frames routed from /ws', async () => {
    const { page, store, ids } = setup()
    await store.load()
    routeFrame(page, { type: 'task-updated', task: task('tk_3', { nextRunAt: '2026-11-29T09:00:00Z' }) })
    expect(ids()).toEqual(['tk_3', 'tk_1', 'tk_2'])
    routeFrame(page, { type: 'task-updated', task: { ...taskExample, paused: true } })
    expect(ids()).toEqual(['tk_3', 'tk_2', 'tk_1'])
    routeFrame(page, { type: 'task-deleted', id: 'tk_3' })
    expect(ids()).toEqual(['tk_2', 'tk_1'])
  })

  it('applies frames that came while the list loaded over it', async () => {
    const { api, page, store, ids } = setup()
    const answer = deferred<Task[]>()
    api.list.mockReturnValueOnce(answer.promise)
    const loading = store.load()
    routeFrame(page, { type: 'task-updated', task: { ...taskExample, prompt: 'newer' } })
    routeFrame(page, { type: 'task-deleted', id: 'tk_2' })
    answer.resolve([taskExample, onceTaskExample])
    await loading
    expect(ids()).toEqual(['tk_1'])
    expect(store.get().tasks?.[0]?.prompt).toBe('newer')
  })

  it('keeps a frame that overtook the answer of run now', async () => {
    const { api, page, store } = setup()
    await store.load()
    const answer = deferred<Task>()
    api.run.mockReturnValueOnce(answer.promise)
    const running = store.runNow('tk_1')
    const done = { ...taskExample, lastRun: { ...taskExample.lastRun!, manual: true, status: 'done' as const, result: 'pineapple' } }
    routeFrame(page, { type: 'task-updated', task: done })
    answer.resolve({ ...taskExample, lastRun: { ...taskExample.lastRun!, manual: true, status: 'running', result: '' } })
    await running
    expect(store.get().tasks?.find((t) => t.id === 'tk_1')?.lastRun).toMatchObject({ status: 'done', result: 'pineapple' })
  })

  it('applies the answers of create, pause and run now when no frame came first', async () => {
    const { api, store, ids } = setup()
    await store.load()
    await store.create({ prompt: 'Say the word pineapple', rrule: 'FREQ=DAILY' })
    expect(ids()).toContain('tk_new')
    await store.setPaused('tk_1', true)
    expect(api.update.mock.calls).toEqual([['tk_1', { paused: true }]])
    expect(store.get().tasks?.find((t) => t.id === 'tk_1')?.paused).toBe(true)
    await store.runNow('tk_2')
    expect(api.run.mock.calls).toEqual([['tk_2']])
  })

  it('deletes (a task already gone counts as deleted) and never brings it back from a late frame', async () => {
    const { api, page, store, ids } = setup()
    await store.load()
    api.remove.mockRejectedValueOnce(new ApiError(404, 'no task tk_1'))
    await store.remove('tk_1')
    expect(ids()).toEqual(['tk_2'])
    routeFrame(page, { type: 'task-updated', task: taskExample })
    expect(ids()).toEqual(['tk_2'])
    api.remove.mockRejectedValueOnce(new ApiError(503, 'busy'))
    await expect(store.remove('tk_2')).rejects.toThrow('busy')
    expect(ids()).toEqual(['tk_2'])
  })

  it('reloads after /ws missed frames only when the list is shown', async () => {
    const { api, store } = setup()
    await store.reload()
    expect(api.list).not.toHaveBeenCalled()
    await store.load()
    await store.reload()
    expect(api.list).toHaveBeenCalledTimes(2)
  })
})
