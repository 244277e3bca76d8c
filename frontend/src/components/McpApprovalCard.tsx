// The card of a call of an MCP server's tool waiting for the user's yes: the
// server, the tool (its name, title and description, the hints the server
// gives about it) and the arguments the model passed, as indented JSON in a
// bounded block (cut when huge, so a hostile call cannot freeze the page);
// then Allow once, Always allow <server>.<tool>, and Deny with an optional
// note. Like the shell card: real buttons, no autofocus, no key handler, and a
// decided card shrinks to its outcome.

import { useId, useMemo } from 'react'
import type { Approval } from '../api'
import { clipText } from '../format'
import { PREVIEW_MAX_CHARS, previewJSON } from '../jsonPreview'
import { outcomeText } from '../state/approvals'
import { ApprovalActions, ConflictNote, type CardProps } from './ApprovalParts'
import { McpAnnotationBadges } from './McpAnnotationBadges'

/** The longest tool description shown (a server writes it; it can be any length). */
const MAX_DESCRIPTION = 2_000

export function McpApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  const titleId = useId()
  const pending = approval.status === 'pending'
  const grantName = `${approval.server}.${approval.tool}`
  return (
    <li
      className={`approval-card approval-mcp status-${approval.status}${pending ? '' : ' decided'}`}
      data-testid="approval-card"
      data-kind="mcp"
      data-approval-id={approval.id}
      data-status={approval.status}
      aria-labelledby={titleId}
    >
      {pending ? (
        <>
          <div className="approval-head">
            <strong id={titleId}>
              Allow {approval.toolTitle || approval.tool} from {approval.server}?
            </strong>
            <span className="approval-tool">{approval.toolName}</span>
          </div>
          <McpCallFacts approval={approval} />
          <ApprovalActions
            card={card}
            onDecide={onDecide}
            once="Allow once"
            alwaysTitle={(base) => `Allow it, and from now on let Wisp call ${base} without asking`}
          />
        </>
      ) : (
        <p className="approval-outcome">
          <span id={titleId} className="visually-hidden">
            Tool
          </span>
          <code className="approval-command-inline" title={grantName}>
            {grantName}
          </code>
          <span data-testid="approval-outcome">{outcomeText(approval)}</span>
        </p>
      )}
      <ConflictNote card={card} />
    </li>
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
