// Reading the page's TaskStore (taskStore.ts) from components: Settings →
// Tasks loads it when shown.

import type { TasksState, TaskStore } from './taskStore'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The page's store. */
export function useTaskStore(): TaskStore {
  return useWisp().tasks
}

/** The tasks as the section shows them; re-renders when they change. */
export function useTasks(): TasksState {
  return useStore(useWisp().tasks)
}
