import { describe, expect, it } from 'vitest'
import {
  approvalMessageId,
  decodeApproval,
  decodeApprovalBody,
  decodeApprovalList,
  decodeDecisionConflict,
  decodeGrant,
  decodeGrantList,
} from './approvalDecode'
import { decodeChatFrame } from './chatDecode'
import { decodeServerMessage } from './decode'
import { approvalExample, grantExample, mcpApprovalExample, mcpGrantExample } from './approvals.test-util'

const approval = approvalExample

describe('decodeApproval', () => {
  it('decodes the contract shape whole, pending and decided', () => {
    expect(decodeApproval(approval)).toEqual(approval)
    const denied = { ...approval, status: 'denied', decision: 'deny', note: 'not now', decidedAt: '2026-11-25T01:01:00Z' }
    expect(decodeApproval(denied)).toEqual(denied)
    const always = { ...approval, status: 'approved', decision: 'approve_always', decidedAt: '2026-11-25T01:01:00Z' }
    expect(decodeApproval(always)).toEqual(always)
  })

  it('decodes an MCP tool call whole, with any JSON as its arguments', () => {
    expect(decodeApproval(mcpApprovalExample)).toEqual(mcpApprovalExample)
    for (const args of [{}, [], 'text', 42, null, { deep: { deeper: [1, { x: null }] } }]) {
      expect(decodeApproval({ ...mcpApprovalExample, arguments: args })?.arguments).toEqual(args)
    }
    expect(decodeApproval({ ...mcpApprovalExample, annotations: null })?.annotations).toBeNull()
  })

  it('rejects what is not its shape (wire.gen.test.ts checks every field)', () => {
    for (const v of [null, [approval], { ...approval, status: 'maybe' }, { ...mcpApprovalExample, kind: 'plugin' }]) {
      expect(decodeApproval(v), JSON.stringify(v)).toBeNull()
    }
  })

  it('rejects a status that contradicts the decision', () => {
    const bad: unknown[] = [
      { ...approval, status: 'pending', decision: 'approve' },
      { ...approval, status: 'approved', decision: 'deny' },
      { ...approval, status: 'approved', decision: null },
      { ...approval, status: 'denied', decision: 'approve_always' },
    ]
    for (const v of bad) expect(decodeApproval(v), JSON.stringify(v)).toBeNull()
    expect(decodeApprovalList({ approvals: [approval, bad[0]] })).toBeNull()
    expect(decodeApprovalBody({ approval: bad[1] })).toBeNull()
    expect(decodeApproval({ ...approval, status: 'cancelled', decision: null })).not.toBeNull()
  })

  it('decodes lists and bodies as a whole or not at all', () => {
    expect(decodeApprovalList({ approvals: [approval] })).toEqual([approval])
    expect(decodeApprovalList({ approvals: [] })).toEqual([])
    expect(decodeApprovalList({ approvals: [approval, { ...approval, bases: null }] })).toBeNull()
    expect(decodeApprovalList({ approvals: approval })).toBeNull()
    expect(decodeApprovalList([approval])).toBeNull()
    expect(decodeApprovalBody({ approval })).toEqual(approval)
    expect(decodeApprovalBody(approval)).toBeNull()
  })
})

describe('approvalMessageId', () => {
  it('keeps the message of the run (its branch) on every route, and is null when the server did not say', () => {
    const raw = { ...approval, messageId: 'u0' }
    expect(approvalMessageId(decodeApproval(raw)!)).toBe('u0')
    expect(approvalMessageId(decodeApprovalBody({ approval: raw })!)).toBe('u0')
    expect(decodeApprovalList({ approvals: [raw, approval] })?.map(approvalMessageId)).toEqual(['u0', null])
    expect(approvalMessageId(decodeApproval(approval)!)).toBeNull()
  })
})

describe('decodeDecisionConflict', () => {
  it('reads the decision that won, null for a cancelled approval', () => {
    expect(decodeDecisionConflict({ error: 'already decided', decision: 'deny' })).toEqual({ error: 'already decided', decision: 'deny' })
    expect(decodeDecisionConflict({ error: 'cancelled', decision: null })).toEqual({ error: 'cancelled', decision: null })
    expect(decodeDecisionConflict({ error: 'cancelled' })).toEqual({ error: 'cancelled', decision: null })
    expect(decodeDecisionConflict({ decision: 'approve' })).toEqual({ error: 'the approval was already decided', decision: 'approve' })
  })

  it('rejects a decision it does not know', () => {
    expect(decodeDecisionConflict({ error: 'x', decision: 'approve_forever' })).toBeNull()
    expect(decodeDecisionConflict({ error: 'x', decision: 2 })).toBeNull()
    expect(decodeDecisionConflict({ error: 5, decision: 'deny' })).toBeNull()
    expect(decodeDecisionConflict('deny')).toBeNull()
  })
})

describe('grant decoders', () => {
  const grant = grantExample
  it('decodes grants and the list', () => {
    expect(decodeGrant(grant)).toEqual(grant)
    expect(decodeGrant(mcpGrantExample)).toEqual(mcpGrantExample)
    const { kind: _k, ...old } = grant
    expect(decodeGrant(old)).toEqual({ ...old, kind: 'shell' })
    expect(decodeGrantList({ grants: [grant, { ...grant, id: 'g2', base: 'ls' }] })).toHaveLength(2)
    expect(decodeGrantList({ grants: [] })).toEqual([])
  })
  it('rejects malformed grants', () => {
    for (const v of [null, { ...grant, base: ['git'] }, { ...grant, kind: 'tool' }]) {
      expect(decodeGrant(v)).toBeNull()
    }
    expect(decodeGrantList({ grants: [grant, null] })).toBeNull()
    expect(decodeGrantList({})).toBeNull()
  })
})

describe('approval frames of a reply stream', () => {
  const paused = {
    type: 'run_paused',
    reason: 'waiting for approval',
    pendingToolName: 'RUN_SHELL',
    pendingToolCallId: 'call_1',
    approvalId: 'ap_1',
    approval,
  }

  it('decodes run_paused, run_resumed and tool_status whole', () => {
    expect(decodeChatFrame(paused)).toEqual(paused)
    expect(decodeChatFrame({ type: 'run_resumed', approvalId: 'ap_1', decision: 'approve_always' })).toEqual({
      type: 'run_resumed',
      approvalId: 'ap_1',
      decision: 'approve_always',
    })
    for (const status of ['pending', 'waiting', 'executing', 'completed', 'failed', 'cancelled', 'interrupted']) {
      const frame = { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status }
      expect(decodeChatFrame(frame)).toEqual(frame)
    }
    const running = { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status: 'executing', terminalRunId: 'run-17-abc' }
    expect(decodeChatFrame(running)).toEqual(running)
  })

  it('takes run_paused details from its approval when the frame leaves them out', () => {
    expect(decodeChatFrame({ type: 'run_paused', approvalId: 'ap_1', approval })).toEqual({ ...paused, reason: '' })
  })

  it('rejects malformed frames', () => {
    const bad: unknown[] = [
      { ...paused, approval: { ...approval, bases: 'git' } },
      { ...paused, approval: undefined },
      { ...paused, approvalId: 'ap_2' },
      { ...paused, reason: 4 },
      { ...paused, pendingToolCallId: {} },
      { type: 'run_resumed', approvalId: 'ap_1', decision: 'sure' },
      { type: 'run_resumed', approvalId: '', decision: 'deny' },
      { type: 'run_resumed', decision: 'deny' },
      { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status: 'exploded' },
      { type: 'tool_status', callId: '', name: 'RUN_SHELL', status: 'executing' },
      { type: 'tool_status', name: 'RUN_SHELL', status: 'executing' },
      { type: 'tool_status', callId: 'call_1', status: 'executing' },
      { type: 'tool_status', callId: 'call_1', name: 'RUN_SHELL', status: 'executing', terminalRunId: 17 },
    ]
    for (const v of bad) expect(decodeChatFrame(v), JSON.stringify(v)).toBeNull()
  })

  it('treats an empty or null terminalRunId as not known yet', () => {
    for (const terminalRunId of ['', null]) {
      expect(decodeChatFrame({ type: 'tool_status', callId: 'k', name: 'RUN_SHELL', status: 'waiting', terminalRunId })).toEqual({
        type: 'tool_status',
        callId: 'k',
        name: 'RUN_SHELL',
        status: 'waiting',
      })
    }
  })
})

describe('stream_resync', () => {
  it('decodes it, and rejects sequence numbers that are not counts', () => {
    const frame = { type: 'stream_resync', reason: 'crash_recovery', fromSequence: 41, messageCount: 41 }
    expect(decodeChatFrame(frame)).toEqual(frame)
    for (const bad of [{ fromSequence: -1 }, { fromSequence: 1.5 }, { messageCount: '4' }, { reason: 3 }, { fromSequence: undefined }]) {
      expect(decodeChatFrame({ ...frame, ...bad }), JSON.stringify(bad)).toBeNull()
    }
  })
})

describe('approval /ws frames', () => {
  it('decodes approval-requested and approval-decided, and drops malformed ones', () => {
    expect(decodeServerMessage(JSON.stringify({ type: 'approval-requested', approval }))).toEqual({ type: 'approval-requested', approval })
    const decided = { ...approval, status: 'approved', decision: 'approve', decidedAt: '2026-11-25T01:01:00Z' }
    expect(decodeServerMessage(JSON.stringify({ type: 'approval-decided', approval: decided }))).toEqual({
      type: 'approval-decided',
      approval: decided,
    })
    expect(decodeServerMessage(JSON.stringify({ type: 'approval-requested', approval: mcpApprovalExample }))).toEqual({
      type: 'approval-requested',
      approval: mcpApprovalExample,
    })
    expect(decodeServerMessage(JSON.stringify({ type: 'approval-requested' }))).toBeNull()
    expect(decodeServerMessage(JSON.stringify({ type: 'approval-decided', approval: { ...approval, status: 'approved' } }))).toBeNull()
  })
})
