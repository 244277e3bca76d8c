// The tools of an MCP server: the server's name for each (the agent's name,
// server__tool, on hover), its title, description and the hints the server
// gives about it. A long list starts folded under "N tools".

import type { McpServer } from '../api'
import { clipText } from '../format'
import { McpAnnotationBadges } from './McpAnnotationBadges'

const MAX_DESCRIPTION = 600
/** Up to this many tools show open; more start folded. */
const OPEN_UP_TO = 5

export function McpToolList({ server }: { server: McpServer }) {
  const { tools, status } = server
  if (tools.length === 0) {
    return status === 'running' ? <p className="empty mcp-no-tools">This server offers no tools.</p> : null
  }
  return (
    <details className="mcp-tools-fold" data-testid="mcp-tools" open={tools.length <= OPEN_UP_TO}>
      <summary>
        {tools.length} {tools.length === 1 ? 'tool' : 'tools'}
      </summary>
      <ToolItems server={server} />
    </details>
  )
}

function ToolItems({ server }: { server: McpServer }) {
  const { tools } = server
  return (
    <ul className="mcp-tools" aria-label={`Tools of ${server.name}`}>
      {tools.map((t) => {
        const title = t.title || t.annotations?.title || ''
        return (
          <li key={t.action} className="mcp-tool" data-testid="mcp-tool" data-action={t.action}>
            <code className="mcp-tool-name" title={`The assistant calls it ${t.action}`}>
              {t.name}
            </code>
            {title !== '' && title !== t.name ? <span className="mcp-tool-title">{title}</span> : null}
            <McpAnnotationBadges annotations={t.annotations} />
            {t.description !== '' ? (
              <span className="mcp-tool-description" title={clipText(t.description, 4 * MAX_DESCRIPTION)}>
                {clipText(t.description, MAX_DESCRIPTION)}
              </span>
            ) : null}
          </li>
        )
      })}
    </ul>
  )
}
