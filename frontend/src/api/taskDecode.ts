// Decoders of the tasks API's answers and frames (taskTypes.ts): the
// generated checks of wire.gen.ts, null for a value that is not its shape.

import type { JsonObject } from './json'
import type { Task, TaskDeletedMessage, TaskUpdatedMessage } from './taskTypes'
import * as wire from './wire.gen'

/** {task}: the answer of GET, POST and PATCH of one task and of run now. */
export function decodeTaskBody(v: unknown): Task | null {
  return wire.decodeOrNull(wire.decodeTaskBody, v)?.task ?? null
}

/** {tasks:[...]}: one malformed task fails the whole list. */
export function decodeTaskList(v: unknown): Task[] | null {
  return wire.decodeOrNull(wire.decodeTaskList, v)?.tasks ?? null
}

export function decodeTaskUpdated(v: JsonObject): TaskUpdatedMessage | null {
  return wire.decodeOrNull(wire.decodeTaskUpdated, v)
}

export function decodeTaskDeleted(v: JsonObject): TaskDeletedMessage | null {
  return wire.decodeOrNull(wire.decodeTaskDeleted, v)
}
