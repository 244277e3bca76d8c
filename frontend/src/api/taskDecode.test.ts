// The tasks' decoders: the wire shapes checked field by field, a wrong or
// missing one refused (null), and the /ws frames task-updated and task-deleted.

import { describe, expect, it } from 'vitest'
import { decodeServerMessage } from './decode'
import { decodeTaskBody, decodeTaskDeleted, decodeTaskList, decodeTaskUpdated } from './taskDecode'
import { onceTaskExample, taskExample as task } from './tasks.test-util'

describe('task decoders', () => {
  it('takes tasks as the server sends them', () => {
    expect(decodeTaskBody({ task })).toEqual(task)
    expect(decodeTaskList({ tasks: [task, onceTaskExample] })).toEqual([task, onceTaskExample])
    expect(decodeTaskList({ tasks: [] })).toEqual([])
  })

  it('refuses a task with a field missing or of the wrong kind', () => {
    const { schedule: _schedule, ...noSchedule } = task
    for (const bad of [
      noSchedule,
      { ...task, at: 7 },
      { ...task, nextRunAt: undefined },
      { ...task, catchUp: 'yes' },
      { ...task, grants: [{ kind: 'root', base: 'x' }] },
      { ...task, lastRun: { ...task.lastRun, manual: null } },
    ]) {
      expect(decodeTaskBody({ task: bad })).toBeNull()
      expect(decodeTaskList({ tasks: [task, bad] })).toBeNull()
    }
    expect(decodeTaskBody(null)).toBeNull()
    expect(decodeTaskList({ tasks: 'none' })).toBeNull()
  })

  it('decodes the task frames, and drops malformed ones', () => {
    expect(decodeTaskUpdated({ type: 'task-updated', task })).toEqual({ type: 'task-updated', task })
    expect(decodeTaskDeleted({ type: 'task-deleted', id: 'tk_1' })).toEqual({ type: 'task-deleted', id: 'tk_1' })
    expect(decodeTaskUpdated({ type: 'task-updated', task: { id: 'tk_1' } })).toBeNull()
    expect(decodeTaskDeleted({ type: 'task-deleted' })).toBeNull()
    expect(decodeServerMessage(JSON.stringify({ type: 'task-updated', task }))).toEqual({ type: 'task-updated', task })
    expect(decodeServerMessage(JSON.stringify({ type: 'task-deleted', id: 'tk_2' }))).toEqual({ type: 'task-deleted', id: 'tk_2' })
  })
})
