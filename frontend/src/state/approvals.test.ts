import { describe, expect, it, vi } from 'vitest'
import type { Approval, DecideResult, Grant } from '../api'
import { ApiError } from '../api'
import { approvalExample, grantExample } from '../api/approvals.test-util'
import {
  awaitingElsewhere,
  awaitingConversations,
  cardsOf,
  initialApprovals,
  outcomeText,
  pendingLoaded,
  placeCards,
  receiveApproval,
  type ApprovalsState,
} from './approvals'
import { ApprovalStore, type ApprovalsApi } from './approvalStore'
import { foldLive, EMPTY_LIVE_REPLY } from './liveReply'

const pending = (over: Partial<Approval> = {}): Approval => ({ ...approvalExample, ...over })
const approved = (over: Partial<Approval> = {}): Approval =>
  pending({ status: 'approved', decision: 'approve', decidedAt: '2026-11-25T01:01:00Z', ...over })

const withCards = (...list: Approval[]): ApprovalsState => list.reduce(receiveApproval, initialApprovals)

describe('the approvals state', () => {
  it('adds approvals in order and takes newer copies, never turning a decided one pending again', () => {
    let s = withCards(pending(), pending({ id: 'ap_2', conversationId: 'c2' }))
    expect(s.cards.map((c) => c.approval.id)).toEqual(['ap_1', 'ap_2'])
    s = receiveApproval(s, approved())
    expect(s.cards[0]?.approval.status).toBe('approved')
    expect(receiveApproval(s, pending())).toBe(s)
  })

  it('drops a card that was pending before a reload of the list and is not in it, keeping newer ones', () => {
    const s = withCards(pending(), pending({ id: 'ap_2' }), pending({ id: 'ap_3' }), approved({ id: 'ap_4' }))
    // ap_3 arrived (by a frame) after the request was sent; ap_4 was decided here.
    const next = pendingLoaded(s, [pending({ id: 'ap_2' }), pending({ id: 'ap_5' })], new Set(['ap_1', 'ap_2']))
    expect(next.cards.map((c) => c.approval.id)).toEqual(['ap_2', 'ap_3', 'ap_4', 'ap_5'])
  })

  it('knows which conversations wait for an approval and which cards a conversation shows', () => {
    const s = withCards(pending(), pending({ id: 'ap_2', conversationId: 'c2' }), approved({ id: 'ap_3', conversationId: 'c3' }))
    expect([...awaitingConversations(s)].sort()).toEqual(['c1', 'c2'])
    expect(cardsOf(s, 'c3').map((c) => c.approval.id)).toEqual(['ap_3'])
    expect(cardsOf(s, null)).toEqual([])
  })

  it('places each card after the reply of its run, the others last', () => {
    const s = withCards(pending(), pending({ id: 'ap_2', runId: 'run-9' }), pending({ id: 'ap_3' }))
    const { byRun, rest } = placeCards(s.cards, [undefined, 'run-1', undefined])
    expect(byRun.get('run-1')?.map((c) => c.approval.id)).toEqual(['ap_1', 'ap_3'])
    expect(rest.map((c) => c.approval.id)).toEqual(['ap_2'])
  })

  it('tells the pending cards of a branch not shown (by their message) from an older server\'s', () => {
    const onOther = pending({ id: 'ap_2', runId: 'run-9', messageId: 'u0' })
    const onShown = pending({ id: 'ap_3', runId: 'run-8', messageId: 'u1' })
    const decidedElsewhere = approved({ id: 'ap_4', runId: 'run-7', messageId: 'u0' })
    const s = withCards(pending({ runId: 'run-6' }), onOther, onShown, decidedElsewhere)
    const { rest, elsewhere } = placeCards(s.cards, ['run-1'], ['u1', 'a1'])
    expect(elsewhere.map((c) => c.approval.id)).toEqual(['ap_2'])
    // No message id (an older server), or its message is shown: last, as before.
    expect(rest.map((c) => c.approval.id)).toEqual(['ap_1', 'ap_3'])
    expect(awaitingElsewhere(s, 'c1', [{ id: 'u1', runId: 'run-1' }])).toBe(true)
    expect(awaitingElsewhere(withCards(onOther), 'c1', [{ id: 'u0', runId: 'run-1' }])).toBe(false)
    expect(awaitingElsewhere(s, null, [])).toBe(false)
  })

  it("keeps an approval's message when a newer copy does not say it", () => {
    const s = receiveApproval(withCards(pending({ messageId: 'u0' })), { ...approved(), messageId: undefined } as Approval)
    expect(s.cards[0]?.approval).toMatchObject({ status: 'approved', messageId: 'u0' })
  })

  it('says how a decided approval ended', () => {
    expect(outcomeText(approved())).toBe('Allowed once.')
    expect(outcomeText(approved({ decision: 'approve_always' }))).toBe('Allowed; always allowing rm from now on.')
    expect(outcomeText(pending({ status: 'denied', decision: 'deny', note: 'not today' }))).toBe('Denied: “not today”')
    expect(outcomeText(pending({ status: 'cancelled' }))).toBe('Cancelled: the run was stopped.')
  })
})

function fakeApi(over: Partial<ApprovalsApi> = {}): ApprovalsApi & { calls: string[] } {
  const calls: string[] = []
  return {
    calls,
    listApprovals: async () => {
      calls.push('list')
      return []
    },
    decideApproval: async (id, decision, note) => {
      calls.push(`decide ${id} ${decision} ${note ?? ''}`.trim())
      const status = decision === 'deny' ? 'denied' : 'approved'
      return { ok: true, approval: approved({ id, decision, status }) }
    },
    listGrants: async () => {
      calls.push('grants')
      return [grantExample]
    },
    deleteGrant: async (id) => {
      calls.push(`delete ${id}`)
    },
    ...over,
  }
}

function storeWith(api: ApprovalsApi, ...list: Approval[]): ApprovalStore {
  const store = new ApprovalStore()
  store.setApi(api)
  for (const a of list) store.receive(a)
  return store
}

const card = (store: ApprovalStore, id = 'ap_1') => store.get().cards.find((c) => c.approval.id === id)

describe('ApprovalStore', () => {
  it('shows the approval of run_paused and decides it on run_resumed', () => {
    const store = storeWith(fakeApi())
    const seen = vi.fn()
    store.subscribe(seen)
    store.onChatFrame({
      type: 'run_paused',
      reason: 'approval',
      pendingToolName: 'RUN_SHELL',
      pendingToolCallId: 'call_1',
      approvalId: 'ap_1',
      approval: pending(),
    })
    expect(card(store)?.approval.status).toBe('pending')
    store.onChatFrame({ type: 'run_resumed', approvalId: 'ap_1', decision: 'deny' })
    expect(card(store)?.approval).toMatchObject({ status: 'denied', decision: 'deny' })
    store.onChatFrame({ type: 'token', text: 'x' })
    expect(seen).toHaveBeenCalledTimes(2)
  })

  it('loads the pending approvals', async () => {
    const api = fakeApi({ listApprovals: async () => [pending(), pending({ id: 'ap_2' })] })
    const store = storeWith(api)
    await store.loadPending()
    expect(store.get().cards.map((c) => c.approval.id)).toEqual(['ap_1', 'ap_2'])
  })

  it('disables the card while its decision is in flight and sends it once', async () => {
    let answer: (r: DecideResult) => void = () => undefined
    const api = fakeApi({ decideApproval: () => new Promise((resolve) => (answer = resolve)) })
    const store = storeWith(api, pending())
    const sent = store.decide('ap_1', 'approve')
    expect(card(store)?.sending).toBe('approve')
    await store.decide('ap_1', 'deny') // ignored: one is in flight
    answer({ ok: true, approval: approved() })
    await sent
    expect(card(store)).toMatchObject({ sending: null, conflict: null, approval: { status: 'approved' } })
  })

  it('shows the decision that won on a 409', async () => {
    const api = fakeApi({ decideApproval: async () => ({ ok: false, decision: 'deny', error: 'already decided' }) })
    const store = storeWith(api, pending())
    await store.decide('ap_1', 'approve')
    expect(card(store)).toMatchObject({ sending: null, conflict: { decision: 'deny' }, approval: { status: 'denied', decision: 'deny' } })
  })

  it('keeps the card pending with the error when the decision cannot be sent', async () => {
    const api = fakeApi({
      decideApproval: async () => {
        throw new ApiError(0, 'cannot reach the Wisp server')
      },
    })
    const store = storeWith(api, pending())
    await store.decide('ap_1', 'approve')
    expect(card(store)).toMatchObject({ sending: null, error: 'cannot reach the Wisp server', approval: { status: 'pending' } })
  })

  it('sends the trimmed note with a denial and reloads the grants after approve_always', async () => {
    const api = fakeApi()
    const store = storeWith(api, pending(), pending({ id: 'ap_2' }))
    await store.decide('ap_1', 'deny', '  not on main  ')
    await store.decide('ap_2', 'approve_always')
    await vi.waitFor(() => expect(store.get().grants).toEqual([grantExample]))
    expect(api.calls).toEqual(['decide ap_1 deny not on main', 'decide ap_2 approve_always', 'grants'])
  })

  it('reloads a list of grants on screen when another client always-allows', async () => {
    const api = fakeApi()
    const store = storeWith(api, pending())
    store.receive(approved({ decision: 'approve_always' }))
    expect(api.calls).toEqual([]) // no list loaded: nothing to refresh
    await store.loadGrants()
    store.receive(pending({ id: 'ap_2' }))
    store.receive(approved({ id: 'ap_2', decision: 'approve_always' }))
    await vi.waitFor(() => expect(api.calls).toEqual(['grants', 'grants']))
  })

  it('revokes a grant; one already gone counts as revoked, other failures show', async () => {
    const grants: Grant[] = [grantExample, { ...grantExample, id: 'g2', base: 'ls' }]
    let fail: ApiError | null = new ApiError(404, 'no such grant')
    const api = fakeApi({
      listGrants: async () => grants,
      deleteGrant: async () => {
        if (fail !== null) throw fail
      },
    })
    const store = storeWith(api)
    await store.loadGrants()
    await store.revokeGrant('g1')
    expect(store.get().grants?.map((g) => g.base)).toEqual(['ls'])
    fail = new ApiError(500, 'database is locked')
    await store.revokeGrant('g2')
    expect(store.get()).toMatchObject({ grantsError: 'Cannot revoke the grant: database is locked' })
    expect(store.get().grants?.map((g) => g.base)).toEqual(['ls'])
  })
})

describe('tool_status in a streaming reply', () => {
  it('updates the tool by call id, keeping its arguments and terminal run through tool_end', () => {
    const live = foldLive(EMPTY_LIVE_REPLY, [
      { seq: 1, frame: { type: 'tool_start', callId: 'k', name: 'RUN_SHELL', arguments: { command: 'ls' } } },
      { seq: 2, frame: { type: 'tool_status', callId: 'k', name: 'RUN_SHELL', status: 'waiting' } },
    ])
    expect(live.tools).toEqual([{ callId: 'k', name: 'RUN_SHELL', arguments: { command: 'ls' }, status: 'waiting' }])
    const running = foldLive(live, [
      { seq: 3, frame: { type: 'tool_status', callId: 'k', name: 'RUN_SHELL', status: 'executing', terminalRunId: 'run-7' } },
      { seq: 4, frame: { type: 'tool_status', callId: 'k', name: 'RUN_SHELL', status: 'completed' } },
    ])
    expect(running.tools[0]).toMatchObject({ status: 'completed', terminalRunId: 'run-7', arguments: { command: 'ls' } })
    const ended = foldLive(running, [{ seq: 5, frame: { type: 'tool_end', callId: 'k', name: 'RUN_SHELL', result: 'exit 0' } }])
    expect(ended.tools[0]).toMatchObject({ status: 'completed', terminalRunId: 'run-7', result: 'exit 0' })
  })

  it('keeps a declined or stopped call cancelled when it ends with an error', () => {
    const live = foldLive(EMPTY_LIVE_REPLY, [
      { seq: 1, frame: { type: 'tool_start', callId: 'k', name: 'RUN_SHELL', arguments: {} } },
      { seq: 2, frame: { type: 'tool_status', callId: 'k', name: 'RUN_SHELL', status: 'cancelled' } },
      { seq: 3, frame: { type: 'tool_end', callId: 'k', name: 'RUN_SHELL', error: 'the user declined to run this command' } },
    ])
    expect(live.tools[0]).toMatchObject({ status: 'cancelled', error: 'the user declined to run this command' })
  })

  it('changes nothing but the sequence number for run_paused and run_resumed', () => {
    const live = foldLive(EMPTY_LIVE_REPLY, [{ seq: 4, frame: { type: 'run_resumed', approvalId: 'ap_1', decision: 'approve' } }])
    expect(live).toEqual({ ...EMPTY_LIVE_REPLY, lastSeq: 4 })
  })
})
