// The card of a call of an MCP server's tool waiting for the user's yes: the
// server, the tool (its name, title and description, the hints the server
// gives about it) and the arguments the model passed, as indented JSON in a
// bounded block (cut when huge, so a hostile call cannot freeze the page);
// then Allow once, Always allow <server>.<tool>, and Deny with an optional
// note. Like the shell card: real buttons, no autofocus, no key handler, and a
// decided card shrinks to its outcome; and hidden or direction-changing
// characters in what the model or the server wrote are drawn as escapes,
// counted and said so.

import './approval.css'
import { useMemo } from 'react'
import type { Approval } from '../api'
import { clipText } from '../format'
import { countHidden } from '../hiddenChars'
import { PREVIEW_MAX_CHARS, previewJSON, type JsonPreview } from '../jsonPreview'
import { ApprovalActions, ApprovalFrame, type CardProps } from './ApprovalParts'
import { HiddenCharsNote, HiddenText, type HiddenPart } from './HiddenText'
import { McpAnnotationBadges } from './McpAnnotationBadges'

/** The longest tool description shown (a server writes it; it can be any length). */
const MAX_DESCRIPTION = 2_000

/** What of an MCP approval the card shows that could hide characters, and how many each has. */
function hiddenParts(approval: Approval, preview: JsonPreview): HiddenPart[] {
  const { server, tool, toolTitle, toolDescription } = approval
  return [
    { what: 'These arguments', plural: true, count: countHidden(preview.text) },
    { what: 'the tool', count: countHidden(tool) + countHidden(toolTitle) + countHidden(clipText(toolDescription, MAX_DESCRIPTION)) },
    { what: 'the server’s name', count: countHidden(server) },
  ]
}

export function McpApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  const preview = useMemo(() => previewJSON(approval.arguments), [approval.arguments])
  const parts = useMemo(() => hiddenParts(approval, preview), [approval, preview])
  const question = (
    <>
      Allow <HiddenText text={approval.toolTitle || approval.tool} newline="escape" /> from{' '}
      <HiddenText text={approval.server} newline="escape" />?
    </>
  )
  return (
    <ApprovalFrame
      card={card}
      kind="mcp"
      question={question}
      what="Tool"
      subject={`${approval.server}.${approval.tool}`}
      facts={<McpCallFacts approval={approval} preview={preview} parts={parts} />}
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <ApprovalActions
          card={card}
          onDecide={onDecide}
          once="Allow once"
          alwaysTitle={(base) => `Allow it, and from now on let Wisp call ${base} without asking`}
        />
      }
    />
  )
}

interface FactsProps {
  approval: Approval
  preview: JsonPreview
  parts: HiddenPart[]
}

function McpCallFacts({ approval, preview, parts }: FactsProps) {
  const { server, tool, toolTitle, toolDescription, annotations } = approval
  return (
    <>
      <HiddenCharsNote parts={parts} differs="what the tool gets" />
      <dl className="approval-facts">
        <dt>Server</dt>
        <dd>
          <code data-testid="approval-mcp-server">
            <HiddenText text={server} newline="escape" />
          </code>
        </dd>
        <dt>Tool</dt>
        <dd className="approval-mcp-tool" data-testid="approval-mcp-tool" data-tool={tool}>
          <code>
            <HiddenText text={tool} newline="escape" />
          </code>
          {toolTitle !== '' && toolTitle !== tool ? (
            <span className="approval-mcp-title">
              <HiddenText text={toolTitle} newline="escape" />
            </span>
          ) : null}
          <McpAnnotationBadges annotations={annotations} />
          {toolDescription !== '' ? (
            <span className="approval-mcp-description" data-testid="approval-mcp-description">
              <HiddenText text={clipText(toolDescription, MAX_DESCRIPTION)} newline="break" />
            </span>
          ) : null}
        </dd>
      </dl>
      <McpArguments preview={preview} />
    </>
  )
}

function McpArguments({ preview }: { preview: JsonPreview }) {
  return (
    <div className="approval-mcp-arguments">
      <span className="approval-mcp-label">Arguments</span>
      <pre className="approval-command as-run" data-testid="approval-mcp-arguments" tabIndex={0} aria-label="Arguments">
        <code>
          <HiddenText text={preview.text} newline="break" />
        </code>
      </pre>
      {preview.cut ? (
        <p className="approval-hint" data-testid="approval-mcp-arguments-cut">
          Shown in part: the arguments are longer than {PREVIEW_MAX_CHARS.toLocaleString()} characters or nested too deep.
        </p>
      ) : null}
    </div>
  )
}
