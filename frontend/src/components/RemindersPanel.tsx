import './reminders.css'
import { useMemo } from 'react'
import type { Reminder } from '../api'
import { refreshPeriod, splitReminders } from '../state/reminders'
import { useNow } from '../state/useNow'
import { useAppState, useWisp } from '../state/WispProvider'
import { ReminderForm } from './ReminderForm'
import { ReminderRow } from './ReminderRow'

/** The side column's reminders: an add form, the pending ones soonest first, then the recently delivered. */
export function RemindersPanel() {
  const { reminders: actions } = useWisp()
  const reminders = useAppState((s) => s.reminders)
  const conversations = useAppState((s) => s.conversations)
  const openId = useAppState((s) => s.chat.conversationId)
  const apiReady = useAppState((s) => s.apiReady)
  const agentName = useAppState((s) => s.status?.agentName || 'Wisp')
  const list = useMemo(() => reminders ?? [], [reminders])
  const now = useNow(refreshPeriod(list, Date.now()))
  const { pending, delivered } = useMemo(() => splitReminders(list), [list])
  const titleOf = useMemo(() => {
    const titles = new Map((conversations ?? []).map((c) => [c.id, c.title || 'Untitled']))
    return (id: string | null) => (id === null ? undefined : titles.get(id))
  }, [conversations])
  const row = (r: Reminder) => (
    <ReminderRow
      key={r.id}
      reminder={r}
      now={now}
      conversation={r.conversationId === openId ? undefined : titleOf(r.conversationId)}
      onDelete={actions.remove}
    />
  )

  return (
    <section className="reminders" aria-labelledby="reminders-title" data-testid="reminders-panel">
      <h2 className="panel-title" id="reminders-title">
        Reminders <span className="count">{pending.length}</span>
      </h2>
      <ReminderForm
        conversationId={openId}
        conversationTitle={openId === null ? null : (titleOf(openId) ?? 'this chat')}
        onCreate={actions.create}
      />
      {reminders === null ? (
        <p className="empty">{apiReady ? 'Loading…' : 'Waiting for the server…'}</p>
      ) : list.length === 0 ? (
        <p className="empty">No reminders. Add one here, or ask {agentName} to remind you.</p>
      ) : (
        <div className="reminder-lists">
          {pending.length > 0 ? (
            <ol className="reminder-list" aria-label="Pending reminders">
              {pending.map(row)}
            </ol>
          ) : null}
          {delivered.length > 0 ? (
            <>
              <h3 className="reminder-group">Delivered</h3>
              <ol className="reminder-list delivered" aria-label="Delivered reminders">
                {delivered.map(row)}
              </ol>
            </>
          ) : null}
        </div>
      )}
    </section>
  )
}
