// Settings → Tasks (docs/tasks.md), a Store of the page's WispPage: the
// tasks as the server last said (loaded when the section opens, again after
// /ws missed frames), each task-updated and task-deleted frame applied as
// it comes, and the section's requests: create, pause or resume, run now
// and delete, and a task's own grants. Components select from it and call
// its methods; they never fetch.
//
// Every change on the server publishes a frame, so an answer is applied
// only when no frame of that task came while it was in flight (a frame is
// at least as new: "running" answered by run now never replaces the "done"
// of a frame that overtook it). Frames that come while the list loads are
// applied over it, and a deleted task never comes back from a late frame.

import { ApiError, type NewTask, type Task, type TaskGrant, type TasksClient } from '../api'
import { errorMessage } from './chatRunner'
import { Store } from './store'

/** The API the store needs (ApiClient.tasks). */
export type TasksApi = Pick<TasksClient, 'list' | 'create' | 'update' | 'run' | 'remove'>

export interface TasksState {
  /** By next run (paused ones and those that will not run again last); null until loaded. */
  tasks: Task[] | null
  loading: boolean
  loadError: string | null
}

export const initialTasks: TasksState = { tasks: null, loading: false, loadError: null }

/** The section's order: active tasks by next run, then those with none, then paused; oldest first on ties. */
export function sortTasks(list: readonly Task[]): Task[] {
  const next = (t: Task) => (t.nextRunAt === null ? Infinity : Date.parse(t.nextRunAt))
  return [...list].sort(
    (a, b) => Number(a.paused) - Number(b.paused) || next(a) - next(b) || a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id),
  )
}

export function upsertTask(list: readonly Task[], task: Task): Task[] {
  return sortTasks([task, ...list.filter((t) => t.id !== task.id)])
}

export function removeTask(list: readonly Task[], id: string): Task[] {
  return list.some((t) => t.id === id) ? list.filter((t) => t.id !== id) : (list as Task[])
}

export class TaskStore extends Store<TasksState> {
  private api: TasksApi | null = null
  private loadGeneration = 0
  /** Frames that came while a load was in flight (null: deleted), applied over its list. */
  private duringLoad: Map<string, Task | null> | null = null
  /** How many frames of each task came: an answer is applied only when none came meanwhile. */
  private readonly frames = new Map<string, number>()
  private readonly deleted = new Set<string>()

  constructor() {
    super(initialTasks)
  }

  setApi(api: TasksApi | null): void {
    this.api = api
  }

  /** Loads the list (Settings → Tasks shown). */
  readonly load = async (): Promise<void> => {
    const api = this.api
    if (api === null) return
    const gen = ++this.loadGeneration
    this.duringLoad = new Map()
    this.patch({ loading: true, loadError: null })
    try {
      const list = await api.list()
      if (gen !== this.loadGeneration) return
      let tasks = sortTasks(list.filter((t) => !this.deleted.has(t.id)))
      for (const [id, task] of this.duringLoad ?? []) tasks = task === null ? removeTask(tasks, id) : upsertTask(tasks, task)
      this.duringLoad = null
      this.set({ tasks, loading: false, loadError: null })
    } catch (err) {
      if (gen !== this.loadGeneration) return
      this.duringLoad = null
      this.patch({ loading: false, loadError: errorMessage(err) })
    }
  }

  /** Frames may have been missed (/ws resync): loads again when the list is shown. */
  readonly reload = async (): Promise<void> => {
    if (this.get().tasks !== null) await this.load()
  }

  /** A task-updated frame. */
  readonly receive = (task: Task): void => {
    if (this.deleted.has(task.id)) return
    this.frames.set(task.id, (this.frames.get(task.id) ?? 0) + 1)
    this.duringLoad?.set(task.id, task)
    this.set((s) => (s.tasks === null ? s : { ...s, tasks: upsertTask(s.tasks, task) }))
  }

  /** A task-deleted frame. */
  readonly removed = (id: string): void => {
    this.deleted.add(id)
    this.duringLoad?.set(id, null)
    this.set((s) => (s.tasks === null ? s : { ...s, tasks: removeTask(s.tasks, id) }))
  }

  /** Schedules a task. Rejects with ApiError (400: the schedule parser's words) for the form to show. */
  readonly create = async (req: NewTask): Promise<Task> => {
    const task = await this.client().create(req)
    if (!this.frames.has(task.id)) this.put(task)
    return task
  }

  /** Pauses or resumes a task. Rejects with ApiError. */
  readonly setPaused = (id: string, paused: boolean): Promise<void> => this.change(id, (api) => api.update(id, { paused }))

  /** Replaces a task's own grants (the whole list). Rejects with ApiError (400: the server's words). */
  readonly setGrants = (id: string, grants: TaskGrant[]): Promise<void> => this.change(id, (api) => api.update(id, { grants }))

  /** Runs a task now. Rejects with ApiError (409 while a run of it is going). */
  readonly runNow = (id: string): Promise<void> => this.change(id, (api) => api.run(id))

  /** Deletes a task; one already gone counts as deleted. Rejects with ApiError otherwise. */
  readonly remove = async (id: string): Promise<void> => {
    try {
      await this.client().remove(id)
    } catch (err) {
      if (!(err instanceof ApiError && err.status === 404)) throw err
    }
    this.removed(id)
  }

  private async change(id: string, call: (api: TasksApi) => Promise<Task>): Promise<void> {
    const before = this.frames.get(id) ?? 0
    const task = await call(this.client())
    if ((this.frames.get(id) ?? 0) === before) this.put(task)
  }

  private put(task: Task): void {
    if (this.deleted.has(task.id)) return
    this.duringLoad?.set(task.id, task)
    this.set((s) => (s.tasks === null ? s : { ...s, tasks: upsertTask(s.tasks, task) }))
  }

  private client(): TasksApi {
    if (this.api === null) throw new ApiError(0, 'not connected to the Wisp server')
    return this.api
  }
}
