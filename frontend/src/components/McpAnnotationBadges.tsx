// The hints an MCP server gives about a tool ("read-only", "destructive",
// "idempotent", "open world"), as badges. Informative only: a server may say
// anything, so nothing is allowed or refused because of them.

import './McpAnnotationBadges.css'
import type { McpToolAnnotations } from '../api'
import { annotationBadges } from '../state/mcp'

export function McpAnnotationBadges({ annotations }: { annotations: McpToolAnnotations | null }) {
  const badges = annotationBadges(annotations)
  if (badges.length === 0) return null
  return (
    <span className="mcp-badges" data-testid="mcp-annotations">
      {badges.map((b) => (
        <span
          key={b.hint}
          className={`tag mcp-badge mcp-badge-${b.hint}`}
          data-testid="mcp-annotation"
          data-hint={b.hint}
          title={`${b.title} (a hint from the server, not a promise)`}
        >
          {b.label}
        </span>
      ))}
    </span>
  )
}
