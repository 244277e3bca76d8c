export function Sidebar() {
  return (
    <nav className="sidebar" aria-label="Conversations">
      <h2 className="panel-title">Conversations</h2>
      <p className="empty">
        Conversations arrive with chat. There are none yet, so there is nothing to list.
      </p>
    </nav>
  )
}
