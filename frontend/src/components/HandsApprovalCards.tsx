// The cards of the agent's hands on the web and on files (docs/web.md,
// docs/files.md), drawn like the shell's (ApprovalParts): a page to fetch
// (kind web: the URL in full, its site; Always allow <site>), files to read
// (kind file_read: the path, its folder; Always allow reading ~/project) and a
// change to a file (kind file_edit: the path, the diff it makes, exactly what
// is written; Always allow edits under ~/project). What the model wrote is
// drawn through HiddenText, escapes counted and said so.

import './approval.css'
import { useMemo } from 'react'
import type { Approval } from '../api'
import { countHidden } from '../hiddenChars'
import { ApprovalActions, ApprovalFrame, type CardProps } from './ApprovalParts'
import { DiffView } from './DiffView'
import { HiddenCharsNote, HiddenText, type HiddenPart } from './HiddenText'
import { relativeTo, tildePath } from './homePath'

/** The host of a URL, or '' when it is not one. */
function hostOf(url: string): string {
  try {
    return new URL(url).host
  } catch {
    return ''
  }
}

export function WebApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  const parts = useMemo<HiddenPart[]>(
    () => [
      { what: 'This address', count: countHidden(approval.url) },
      { what: 'its reason', count: countHidden(approval.reason) },
    ],
    [approval.url, approval.reason],
  )
  const site = approval.bases[0] ?? hostOf(approval.url)
  return (
    <ApprovalFrame
      card={card}
      kind="web"
      question={
        <>
          Fetch a page from <HiddenText text={site} newline="escape" />?
        </>
      }
      what="Web page"
      subject={approval.url}
      facts={
        <>
          <HiddenCharsNote parts={parts} differs="what is fetched" />
          <pre className="approval-command as-run" data-testid="approval-url">
            <code>
              <HiddenText text={approval.url} newline="escape" />
            </code>
          </pre>
          <dl className="approval-facts">
            <dt>Site</dt>
            <dd>
              <code data-testid="approval-site">
                <HiddenText text={site} newline="escape" />
              </code>
            </dd>
            <Reason reason={approval.reason} />
          </dl>
        </>
      }
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <ApprovalActions
          card={card}
          onDecide={onDecide}
          once="Allow once"
          alwaysTitle={(base) => `Fetch it, and from now on let Wisp fetch pages of ${base} without asking`}
        />
      }
    />
  )
}

export function FileReadApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  const parts = useFileParts(approval)
  const inRoot = relativeTo(approval.path, approval.root)
  return (
    <ApprovalFrame
      card={card}
      kind="file_read"
      question={
        <>
          Read in <HiddenText text={tildePath(approval.root)} newline="escape" />?
        </>
      }
      what="Files to read"
      subject={tildePath(approval.path)}
      facts={
        <>
          <HiddenCharsNote parts={parts} differs="what is read" />
          <FileFacts approval={approval} inRoot={inRoot} />
        </>
      }
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <ApprovalActions
          card={card}
          onDecide={onDecide}
          once="Allow once"
          alwaysTitle={(base) => `Allow it, and from now on let Wisp read files in ${base} without asking`}
          alwaysLabel={(base) => <>Always allow reading {<code>{tildePath(base)}</code>}</>}
        />
      }
    />
  )
}

export function FileEditApprovalCard({ card, onDecide }: CardProps) {
  const { approval } = card
  const parts = useFileParts(approval, approval.diff)
  const inRoot = relativeTo(approval.path, approval.root)
  return (
    <ApprovalFrame
      card={card}
      kind="file_edit"
      question={
        <>
          Change <HiddenText text={inRoot} newline="escape" />?
        </>
      }
      what="Change to a file"
      subject={tildePath(approval.path)}
      facts={
        <>
          <HiddenCharsNote parts={parts} differs="what is written" />
          <FileFacts approval={approval} inRoot={inRoot} />
          <DiffView diff={approval.diff} />
        </>
      }
      hiddenChars={parts.reduce((n, p) => n + p.count, 0)}
      actions={
        <ApprovalActions
          card={card}
          onDecide={onDecide}
          once="Allow once"
          alwaysTitle={(base) => `Allow it, and from now on let Wisp change files in ${base} without asking`}
          alwaysLabel={(base) => <>Always allow edits under {<code>{tildePath(base)}</code>}</>}
        />
      }
    />
  )
}

function useFileParts(approval: Approval, diff = ''): HiddenPart[] {
  const { path, reason } = approval
  return useMemo(
    () => [
      { what: 'This path', count: countHidden(path) },
      { what: 'the change', count: countHidden(diff) },
      { what: 'its reason', count: countHidden(reason) },
    ],
    [path, diff, reason],
  )
}

function FileFacts({ approval, inRoot }: { approval: Approval; inRoot: string }) {
  return (
    <dl className="approval-facts">
      <dt>File</dt>
      <dd>
        <code className="as-run" data-testid="approval-path" title={approval.path}>
          <HiddenText text={inRoot} newline="escape" />
        </code>
      </dd>
      <dt>In</dt>
      <dd>
        <code data-testid="approval-root" title={approval.root}>
          <HiddenText text={tildePath(approval.root)} newline="escape" />
        </code>
      </dd>
      <Reason reason={approval.reason} />
    </dl>
  )
}

function Reason({ reason }: { reason: string }) {
  if (reason === '') return null
  return (
    <>
      <dt>Why</dt>
      <dd data-testid="approval-reason">
        <HiddenText text={reason} />
      </dd>
    </>
  )
}
