import { describe, expect, it } from 'vitest'
import type { Approval, ServerMessage } from '../api'
import { approvalExample } from '../api/approvals.test-util'
import { mcpServerExample } from '../api/mcp.test-util'
import { faceBus, type ExpressionCue } from '../avatar/faceBus'
import { routeFrame } from './frameTable'
import { WispPage } from './wispPage'

const status = { state: 'running', agentName: 'Wisp', model: 'fake', canRespond: true, startedAt: 1, uptime: 1 }

describe('routeFrame', () => {
  it('hands each frame to the store that keeps what it says', () => {
    const page = new WispPage()
    const heard: Approval[] = []
    page.events.approvals.add((a) => heard.push(a))
    const frames = [
      { type: 'status', ...status },
      { type: 'config-error', message: 'line 3: bad value' },
      { type: 'heartbeat_event', version: 1, eventId: 'e1', ts: 5, stream: 'chat', payload: { status: 'thinking', runId: 'r1', conversationId: 'c1' } },
      { type: 'mcp-servers', servers: [mcpServerExample] },
      { type: 'approval-requested', approval: approvalExample },
    ] as ServerMessage[]
    for (const f of frames) routeFrame(page, f)

    const app = page.app.get()
    expect(app.status).toMatchObject({ model: 'fake', configError: 'line 3: bad value' })
    expect(app.activity.map((e) => e.envelope.eventId)).toEqual(['e1'])
    expect(app.turns).toHaveProperty('c1')
    expect(page.mcp.get().servers?.map((s) => s.name)).toEqual([mcpServerExample.name])
    expect(page.approvals.get().cards.map((c) => c.approval.id)).toEqual([approvalExample.id])
    expect(heard).toEqual([approvalExample])
  })

  it('shows expression cues on the face and puts a new character in the avatar store', () => {
    const page = new WispPage()
    const cues: ExpressionCue[] = []
    const off = faceBus.onExpression((c) => cues.push(c))
    try {
      routeFrame(page, { type: 'expression', expression: 'happy', intensity: 0.8, durationMs: 3000, source: 'agent' } as ServerMessage)
    } finally {
      off()
    }
    expect(cues).toEqual([{ expression: 'happy', intensity: 0.8, durationMs: 3000 }])
    const avatar = { kind: 'vrm' as const, url: '/avatar/user.vrm?v=1', name: 'a.vrm' }
    routeFrame(page, { type: 'avatar-changed', avatar } as ServerMessage)
    expect(page.avatar.get().value).toEqual(avatar)
  })

  it('leaves frames it does not know, and the socket’s own, alone', () => {
    const page = new WispPage()
    const before = page.app.get()
    for (const type of ['pong', 'auth-ok', 'sparkle', 'toString', 'constructor']) routeFrame(page, { type })
    expect(page.app.get()).toBe(before)
  })
})
