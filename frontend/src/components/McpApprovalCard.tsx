// The card of a call of an MCP server's tool waiting for the user's yes: the
// server, the tool (its name, title and description, the hints the server
// gives about it) and the arguments the model passed, as indented JSON in a
// bounded block (cut when huge, so a hostile call cannot freeze the page);
// then Allow once, Always allow <server>.<tool>, and Deny with an optional
// note. Like the shell card: real buttons, no autofocus, no key handler, and a
// decided card shrinks to its outcome.

import { useMemo } from 'react'
import type { Approval } from '../api'
import { clipText } from '../format'
import { PREVIEW_MAX_CHARS, previewJSON } from '../jsonPreview'
import { ApprovalFrame, type CardProps } from './ApprovalParts'
import { McpAnnotationBadges } from './McpAnnotationBadges'

/** The longest tool description shown (a server writes it; it can be any length). */
const MAX_DESCRIPTION = 2_000

export function McpApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  return (
    <ApprovalFrame
      card={card}
      onDecide={onDecide}
      kind="mcp"
      question={`Allow ${approval.toolTitle || approval.tool} from ${approval.server}?`}
      what="Tool"
      subject={`${approval.server}.${approval.tool}`}
      facts={<McpCallFacts approval={approval} />}
      once="Allow once"
      alwaysTitle={(base) => `Allow it, and from now on let Wisp call ${base} without asking`}
    />
  )
}

function McpCallFacts({ approval }: { approval: Approval }) {
  const { server, tool, toolTitle, toolDescription, annotations } = approval
  return (
    <>
      <dl className="approval-facts">
        <dt>Server</dt>
        <dd>
          <code data-testid="approval-mcp-server">{server}</code>
        </dd>
        <dt>Tool</dt>
        <dd className="approval-mcp-tool" data-testid="approval-mcp-tool" data-tool={tool}>
          <code>{tool}</code>
          {toolTitle !== '' && toolTitle !== tool ? <span className="approval-mcp-title">{toolTitle}</span> : null}
          <McpAnnotationBadges annotations={annotations} />
          {toolDescription !== '' ? (
            <span className="approval-mcp-description" data-testid="approval-mcp-description">
              {clipText(toolDescription, MAX_DESCRIPTION)}
            </span>
          ) : null}
        </dd>
      </dl>
      <McpArguments value={approval.arguments} />
    </>
  )
}

function McpArguments({ value }: { value: unknown }) {
  const preview = useMemo(() => previewJSON(value), [value])
  return (
    <div className="approval-mcp-arguments">
      <span className="approval-mcp-label">Arguments</span>
      <pre className="approval-command" data-testid="approval-mcp-arguments" tabIndex={0} aria-label="Arguments">
        <code>{preview.text}</code>
      </pre>
      {preview.cut ? (
        <p className="approval-hint" data-testid="approval-mcp-arguments-cut">
          Shown in part: the arguments are longer than {PREVIEW_MAX_CHARS.toLocaleString()} characters or nested too deep.
        </p>
      ) : null}
    </div>
  )
}
