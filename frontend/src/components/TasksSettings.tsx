// Settings → Tasks (docs/tasks.md): what Wisp does on its own at set times.
// The tasks (TaskRow: prompt, schedule in words, next run, last result with
// a link to its conversation, Pause/Resume, Run now, Delete), soonest first
// and paused ones last, kept live by the task frames; then the create form
// (TaskForm). State: state/taskStore.ts; loaded when the section is shown.

import './tasks.css'
import { useEffect, useMemo } from 'react'
import { useNow } from '../state/useNow'
import { useTasks, useTaskStore } from '../state/useTasks'
import { useAppState, useWisp } from '../state/wispContext'
import { TaskForm } from './TaskForm'
import { TaskRow, type TaskRowActions } from './TaskRow'

interface Props {
  /** Called after a task's conversation was opened (the settings close to show it). */
  onOpened?(): void
}

export function TasksSettings({ onOpened }: Props) {
  const page = useWisp()
  const store = useTaskStore()
  const { tasks, loadError } = useTasks()
  const now = useNow(15_000)
  const openId = useAppState((s) => s.chat.conversationId)
  const conversations = useAppState((s) => s.conversations)
  const conversation = useMemo(() => {
    if (openId === null) return null
    return { id: openId, title: conversations?.find((c) => c.id === openId)?.title || 'untitled' }
  }, [openId, conversations])
  useEffect(() => {
    void store.load()
  }, [store])

  const actions = useMemo<TaskRowActions>(
    () => ({
      setPaused: store.setPaused,
      runNow: store.runNow,
      remove: store.remove,
      setGrants: store.setGrants,
      openConversation: (id) => {
        if (page.app.get().chat.conversationId !== id) page.chat.open(id)
        onOpened?.()
      },
    }),
    [store, page, onOpened],
  )

  return (
    <section className="settings-section tasks-settings" aria-labelledby="settings-tasks" data-testid="settings-section-tasks">
      <h3 id="settings-tasks">Tasks</h3>
      <p className="hint tasks-hint">
        Prompts Wisp runs on its own at set times, like a message from you; each result is posted in the task's
        conversation with a notification. A run that needs your approval waits for it.
      </p>
      {loadError !== null ? (
        <p className="notice notice-error" role="alert" data-testid="tasks-load-error">
          Could not load the tasks: {loadError}{' '}
          <button type="button" className="link-button" onClick={() => void store.load()}>
            Try again
          </button>
        </p>
      ) : null}
      {tasks === null ? (
        loadError === null ? <p className="empty">Loading…</p> : null
      ) : tasks.length === 0 ? (
        <p className="empty" data-testid="tasks-empty">
          No tasks yet. Create one here, or ask Wisp ("every weekday at 9, summarise my inbox folder").
        </p>
      ) : (
        <ol className="task-list" aria-label="Tasks" data-testid="task-list">
          {tasks.map((t) => (
            <TaskRow key={t.id} task={t} now={now} actions={actions} />
          ))}
        </ol>
      )}
      <TaskForm conversation={conversation} onCreate={store.create} />
    </section>
  )
}
