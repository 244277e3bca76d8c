import './activity.css'
import { useMemo } from 'react'
import { useAppState } from '../state/WispProvider'
import { ActivityItem } from './ActivityItem'

export function ActivityPanel() {
  const activity = useAppState((s) => s.activity)
  const conversations = useAppState((s) => s.conversations)
  const agent = useAppState((s) => s.status?.agentName || 'Wisp')
  const titleOf = useMemo(() => {
    const titles = new Map((conversations ?? []).map((c) => [c.id, c.title]))
    return (id: string) => titles.get(id)
  }, [conversations])
  return (
    <aside className="activity" id="activity-panel" aria-label="Activity">
      <h2 className="panel-title">
        Activity <span className="count">{activity.length}</span>
      </h2>
      {activity.length === 0 ? (
        <p className="empty">
          Nothing yet. What {agent} does (replies, thoughts of its own) and events other programs send show
          here as they happen, newest first.
        </p>
      ) : (
        <ol className="activity-list">
          {activity.map((entry) => (
            <ActivityItem key={entry.key} envelope={entry.envelope} titleOf={titleOf} agent={agent} />
          ))}
        </ol>
      )}
    </aside>
  )
}
