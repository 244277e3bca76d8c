// The tasks API's requests (restTasks.ts through ApiClient.tasks): their
// paths, methods and bodies, the answers decoded and checked, and every
// refusal (the server's {"error"} words) and malformed answer as ApiError.

import { describe, expect, it } from 'vitest'
import { ApiClient, ApiError } from './rest'
import { fakeFetch, json } from './fakeFetch.test-util'
import { onceTaskExample, taskExample as task } from './tasks.test-util'

const client = (respond: Parameters<typeof fakeFetch>[0]) => {
  const { fetch, calls } = fakeFetch(respond)
  return { api: new ApiClient({ baseURL: 'http://h', token: 'tok', fetch }), calls }
}

describe('ApiClient.tasks', () => {
  it('lists the tasks in the order the server gives', async () => {
    const { api, calls } = client(() => json(200, { tasks: [task, onceTaskExample] }))
    await expect(api.tasks.list()).resolves.toEqual([task, onceTaskExample])
    expect(calls[0]).toMatchObject({ url: 'http://h/api/tasks', method: 'GET' })
    expect(calls[0]?.headers.Authorization).toBe('Bearer tok')
  })

  it('creates a task with only the fields given', async () => {
    const { api, calls } = client(() => json(201, { task }))
    await expect(api.tasks.create({ prompt: 'Say pineapple', rrule: 'FREQ=DAILY', catchUp: false })).resolves.toEqual(task)
    await api.tasks.create({ prompt: 'Later', at: '2026-12-01T09:00:00.000Z', conversationId: 'c1' })
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['POST', 'http://h/api/tasks', { prompt: 'Say pineapple', rrule: 'FREQ=DAILY', catchUp: false }],
      ['POST', 'http://h/api/tasks', { prompt: 'Later', at: '2026-12-01T09:00:00.000Z', conversationId: 'c1' }],
    ])
  })

  it('gets, pauses, runs and deletes one task by its escaped id', async () => {
    const { api, calls } = client((c) => (c.method === 'DELETE' ? new Response(null, { status: 204 }) : json(c.url.endsWith('/run') ? 202 : 200, { task })))
    await api.tasks.get('tk/1')
    await api.tasks.update('tk/1', { paused: true })
    await api.tasks.run('tk/1')
    await expect(api.tasks.remove('tk/1')).resolves.toBeUndefined()
    expect(calls.map((c) => [c.method, c.url, c.body])).toEqual([
      ['GET', 'http://h/api/tasks/tk%2F1', undefined],
      ['PATCH', 'http://h/api/tasks/tk%2F1', { paused: true }],
      ['POST', 'http://h/api/tasks/tk%2F1/run', {}],
      ['DELETE', 'http://h/api/tasks/tk%2F1', undefined],
    ])
  })

  it('throws ApiError with the server’s words for refusals, and for malformed answers', async () => {
    const cases: [() => Promise<unknown>, number, string][] = [
      [() => client(() => json(400, { error: 'rrule: unknown FREQ "SOMETIMES"' })).api.tasks.create({ prompt: 'x', rrule: 'FREQ=SOMETIMES' }), 400, 'rrule: unknown FREQ "SOMETIMES"'],
      [() => client(() => json(409, { error: 'a run of this task is going' })).api.tasks.run('tk_1'), 409, 'a run of this task is going'],
      [() => client(() => json(404, { error: 'no task tk_9' })).api.tasks.remove('tk_9'), 404, 'no task tk_9'],
      [() => client(() => json(200, { tasks: [{ ...task, paused: 'no' }] })).api.tasks.list(), 200, 'malformed task list response'],
      [() => client(() => json(200, { task: { ...task, lastRun: { ...task.lastRun, status: 'sleeping' } } })).api.tasks.get('tk_1'), 200, 'malformed task response'],
      [() => client(() => json(200, task)).api.tasks.update('tk_1', { prompt: 'y' }), 200, 'malformed task response'],
      [() => client(() => new Response('<html>', { status: 200 })).api.tasks.list(), 200, '/api/tasks: response is not JSON'],
    ]
    for (const [call, status, message] of cases) {
      const err = await call().catch((e: unknown) => e)
      expect(err, message).toBeInstanceOf(ApiError)
      expect((err as ApiError).status, message).toBe(status)
      expect((err as ApiError).message, message).toBe(message)
    }
  })
})
