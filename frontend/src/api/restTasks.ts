// Tasks on a schedule (docs/tasks.md), a part of the one API client:
// ApiClient.tasks (rest.ts) is a TasksClient over the client's own JSON
// transport, so every failure is the client's ApiError with the server's
// {"error"} message (a schedule the parser refused: 400 with its words; run
// now while a run of the task is going: 409). GET /api/tasks, GET, PATCH and
// DELETE /api/tasks/{id}, POST /api/tasks and POST /api/tasks/{id}/run.

import type { JsonObject } from './json'
import { decodeTaskBody, decodeTaskList } from './taskDecode'
import type { NewTask, Task, TaskEdit } from './taskTypes'

/** An answer: its status and its parsed JSON body (undefined when not JSON). */
export interface TasksReply {
  ok: boolean
  status: number
  statusText: string
  parsed: unknown
}

/** What a TasksClient needs of the API client (rest.ts gives it; this module does not import it). */
export interface TasksTransport {
  /** Sends a JSON request; any answer comes back (a status is never thrown), a network failure is. */
  exchange(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, body?: JsonObject): Promise<TasksReply>
  /** The body of a 2xx JSON answer; anything else is thrown as the client's ApiError. */
  answer(reply: TasksReply, what: string): unknown
  /** The client's error for a 2xx body that is not its shape. */
  malformed(what: string): Error
}

const TASKS = '/api/tasks'
const taskPath = (id: string) => `${TASKS}/${encodeURIComponent(id)}`

export class TasksClient {
  constructor(private readonly transport: TasksTransport) {}

  /** Every task, by next run (paused ones last), as the server orders them. */
  async list(): Promise<Task[]> {
    const reply = await this.transport.exchange('GET', TASKS)
    const tasks = decodeTaskList(this.transport.answer(reply, TASKS))
    if (tasks === null) throw this.transport.malformed('task list')
    return tasks
  }

  /** One task. Rejects with ApiError 404 when there is none. */
  async get(id: string): Promise<Task> {
    return this.task(await this.transport.exchange('GET', taskPath(id)), taskPath(id))
  }

  /** Schedules a task (201). Rejects with ApiError 400 and the parser's words for a schedule it refuses. */
  async create(req: NewTask): Promise<Task> {
    return this.task(await this.transport.exchange('POST', TASKS, body(req)), TASKS)
  }

  /** Changes a task: pause or resume, its prompt, catch-up or its schedule (a new one replaces the old whole). */
  async update(id: string, edit: TaskEdit): Promise<Task> {
    return this.task(await this.transport.exchange('PATCH', taskPath(id), body(edit)), taskPath(id))
  }

  /** Deletes a task (204). Rejects with ApiError (404 when there is none). */
  async remove(id: string): Promise<void> {
    const reply = await this.transport.exchange('DELETE', taskPath(id))
    if (!reply.ok) this.transport.answer(reply, taskPath(id))
  }

  /** Runs a task now (202): its lastRun is the new manual run. Rejects with ApiError 409 while a run of it is going. */
  async run(id: string): Promise<Task> {
    const path = `${taskPath(id)}/run`
    return this.task(await this.transport.exchange('POST', path, {}), path)
  }

  private task(reply: TasksReply, path: string): Task {
    const task = decodeTaskBody(this.transport.answer(reply, path))
    if (task === null) throw this.transport.malformed('task')
    return task
  }
}

/** A request body: the fields given (an undefined one is left out, as JSON.stringify would). */
function body(fields: NewTask | TaskEdit): JsonObject {
  const out: JsonObject = {}
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) out[k] = v
  return out
}
