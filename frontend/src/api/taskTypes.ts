// Wire types of tasks on a schedule (docs/tasks.md): a prompt, a schedule
// (once at a time, an RFC 5545 RRULE or a cron line) and the conversation its
// results go to. The shapes are generated from the Go types (wire.gen.ts);
// the request bodies of POST and PATCH /api/tasks are written here.

import type { TaskGrant } from './wire.gen'

export type {
  Task,
  TaskRun,
  TaskRunStatus,
  TaskGrant,
  TaskUpdated as TaskUpdatedMessage,
  TaskDeleted as TaskDeletedMessage,
} from './wire.gen'

/** When a task runs: exactly one of them (the server refuses none or two). */
export type TaskSchedule = { at: string } | { rrule: string } | { cron: string }

/** POST /api/tasks. No conversationId: a new conversation named after the prompt. catchUp defaults to true. */
export type NewTask = TaskSchedule & {
  prompt: string
  conversationId?: string
  catchUp?: boolean
  grants?: TaskGrant[]
}

/** PATCH /api/tasks/{id}: what changes (a schedule given replaces the old one whole). */
export type TaskEdit = Partial<{ prompt: string; paused: boolean; catchUp: boolean; grants: TaskGrant[] }> & Partial<TaskSchedule>
