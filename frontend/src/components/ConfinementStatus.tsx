// How far the agent's commands and MCP servers are confined (GET /api/status's
// confinement, docs/confinement.md), shown under the shell access switch.

import type { AgentStatus, Confinement } from '../api'

const WORDS: Record<Confinement, string> = {
  full: 'confined',
  partial: 'partly confined',
  none: 'not confined',
}

type Props = { status: Pick<AgentStatus, 'confinement' | 'confinementReason'> | null }

export function ConfinementStatus({ status }: Props) {
  const level = status?.confinement
  if (level === undefined) return null
  return (
    <p className={`setting-wide hint confinement-status confinement-${level}`} data-testid="confinement-status" data-level={level}>
      <strong>Agent commands: {WORDS[level]}.</strong> {status?.confinementReason ?? ''}
      {level === 'full' ? null : ' Every command asks first: standing grants are off until they are confined.'}
    </p>
  )
}
