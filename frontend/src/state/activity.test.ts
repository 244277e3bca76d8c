import { describe, expect, it } from 'vitest'
import type { EnvelopeType, JsonObject, StreamEnvelope } from '../api'
import {
  addActivity,
  describeActivity,
  formatMs,
  JSON_INLINE_MAX,
  PREVIEW_MAX,
  type ActivityEntry,
  type ActivityView,
} from './activity'

const env = (n: number, ts = n): StreamEnvelope => ({
  type: 'agent_event',
  version: 1,
  eventId: `evt-${n}`,
  ts,
  payload: { n },
})

describe('addActivity', () => {
  it('lists newest first and caps the length', () => {
    let list: ActivityEntry[] = []
    for (let i = 1; i <= 5; i++) list = addActivity(list, env(i), 3)
    expect(list.map((e) => e.envelope.eventId)).toEqual(['evt-5', 'evt-4', 'evt-3'])
  })

  it('ignores a replayed envelope but not a reused id from a restarted server', () => {
    let list = addActivity([], env(1, 100))
    const same = addActivity(list, env(1, 100))
    expect(same).toBe(list)
    list = addActivity(list, env(1, 200))
    expect(list).toHaveLength(2)
  })

  it('keeps one entry per chat turn, its latest heartbeat on top', () => {
    const hb = (n: number, runId: string, status: string): StreamEnvelope => ({
      ...env(n),
      type: 'heartbeat_event',
      stream: 'chat',
      payload: { status, runId, conversationId: 'c1' },
    })
    let list: ActivityEntry[] = []
    for (const e of [hb(1, 'r1', 'thinking'), hb(2, 'r1', 'replying'), env(3), hb(4, 'r2', 'thinking'), hb(5, 'r1', 'sent')]) {
      list = addActivity(list, e)
    }
    expect(list.map((e) => e.envelope.eventId)).toEqual(['evt-5', 'evt-4', 'evt-3'])
  })

  it('leaves out what only a developer needs: the autonomy loop ticking and skipping', () => {
    const auto = (n: number, payload: JsonObject): StreamEnvelope => ({ ...env(n), stream: 'autonomy', payload })
    let list: ActivityEntry[] = []
    list = addActivity(list, auto(1, { kind: 'tick', tick: 1 }))
    list = addActivity(list, auto(2, { kind: 'skipped', reason: 'cooldown' }))
    list = addActivity(list, auto(3, { kind: 'thought', text: 'The build is green' }))
    expect(list.map((e) => e.envelope.eventId)).toEqual(['evt-3'])
  })
})

const of = (type: EnvelopeType, payload: JsonObject): StreamEnvelope => ({
  type,
  version: 1,
  eventId: 'evt-1',
  ts: 1,
  stream: 'chat',
  payload,
})

const beat = (extra: JsonObject): JsonObject => ({
  ts: 1,
  to: 'chat',
  hasMedia: false,
  conversationId: 'c1',
  runId: 'r1',
  ...extra,
})

const titles: Record<string, string> = { c1: 'Trip plans', blank: '  ' }
const titleOf = (id: string): string | undefined => titles[id]

const longPayload = { message: 'x'.repeat(JSON_INLINE_MAX) }

describe('describeActivity', () => {
  const cases: { name: string; env: StreamEnvelope; want: ActivityView }[] = [
    {
      name: 'thinking ignores its placeholder preview',
      env: of('heartbeat_event', beat({ status: 'thinking', preview: 'Thinking…', durationMs: 0 })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp is thinking…', status: 'thinking', conversation: 'Trip plans' },
    },
    {
      name: 'replying leaves out its first words (the chat shows them)',
      env: of('heartbeat_event', beat({ status: 'replying', preview: 'You', durationMs: 5 })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp is replying…', status: 'replying', conversation: 'Trip plans' },
    },
    {
      name: 'sent shows the duration and preview',
      env: of('heartbeat_event', beat({ status: 'sent', preview: 'You said: hi', durationMs: 352 })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp replied in 352 ms — You said: hi', status: 'sent', conversation: 'Trip plans' },
    },
    {
      name: 'a stopped reply says so, with the duration',
      env: of('heartbeat_event', beat({ status: 'failed', preview: 'interrupted', durationMs: 352 })),
      want: { kind: 'text', label: 'Chat', text: 'The reply was stopped after 352 ms', status: 'failed', conversation: 'Trip plans' },
    },
    {
      name: 'seconds for longer turns',
      env: of('heartbeat_event', beat({ status: 'sent', preview: 'ok', durationMs: 4_370 })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp replied in 4.3 s — ok', status: 'sent', conversation: 'Trip plans' },
    },
    {
      name: 'no duration and an empty preview leave just the word',
      env: of('heartbeat_event', beat({ status: 'sent', preview: '' })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp replied', status: 'sent', conversation: 'Trip plans' },
    },
    {
      name: 'a non-numeric duration is ignored',
      env: of('heartbeat_event', beat({ status: 'failed', preview: 'error', durationMs: '352' })),
      want: { kind: 'text', label: 'Chat', text: 'The reply did not finish: error', status: 'failed', conversation: 'Trip plans' },
    },
    {
      name: 'an unknown status is shown as its word',
      env: of('heartbeat_event', beat({ status: 'queued', preview: 'waiting', durationMs: 10 })),
      want: { kind: 'text', label: 'Chat', text: 'queued — waiting', status: 'queued', conversation: 'Trip plans' },
    },
    {
      name: 'multi-line previews become one line',
      env: of('heartbeat_event', beat({ status: 'sent', preview: 'Hello\n\n  world ' })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp replied — Hello world', status: 'sent', conversation: 'Trip plans' },
    },
    {
      name: 'a failed reply says so',
      env: of('heartbeat_event', beat({ status: 'failed', preview: 'failed', durationMs: 4_370 })),
      want: { kind: 'text', label: 'Chat', text: 'The reply failed after 4.3 s', status: 'failed', conversation: 'Trip plans' },
    },
    {
      name: 'long previews are cut',
      env: of('heartbeat_event', beat({ status: 'sent', preview: 'y'.repeat(PREVIEW_MAX + 20) })),
      want: {
        kind: 'text',
        label: 'Chat',
        text: `Wisp replied — ${'y'.repeat(PREVIEW_MAX - 1)}…`,
        status: 'sent',
        conversation: 'Trip plans',
      },
    },
    {
      name: 'an unknown conversation has no title',
      env: of('heartbeat_event', beat({ status: 'thinking', conversationId: 'other' })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp is thinking…', status: 'thinking' },
    },
    {
      name: 'a blank title is left out',
      env: of('heartbeat_event', beat({ status: 'thinking', conversationId: 'blank' })),
      want: { kind: 'text', label: 'Chat', text: 'Wisp is thinking…', status: 'thinking' },
    },
    {
      name: 'a heartbeat without a status stays JSON',
      env: of('heartbeat_event', { message: 'tick' }),
      want: { kind: 'json', compact: '{"message":"tick"}' },
    },
    {
      name: 'a heartbeat with a blank status stays JSON',
      env: of('heartbeat_event', { status: ' ' }),
      want: { kind: 'json', compact: '{"status":" "}' },
    },
    {
      name: 'an agent event with text shows the text',
      env: of('agent_event', { text: 'Looking at the logs now', extra: 1 }),
      want: { kind: 'text', label: 'chat', text: 'Looking at the logs now' },
    },
    {
      name: 'an agent event with non-string text stays JSON',
      env: of('agent_event', { text: 42 }),
      want: { kind: 'json', compact: '{"text":42}' },
    },
    {
      name: 'an agent event without text stays JSON',
      env: of('agent_event', { message: 'hello from e2e' }),
      want: { kind: 'json', compact: '{"message":"hello from e2e"}' },
    },
    {
      name: 'a training event with text stays JSON',
      env: of('training_event', { text: 'epoch 1' }),
      want: { kind: 'json', compact: '{"text":"epoch 1"}' },
    },
    {
      name: 'a status on a non-heartbeat stays JSON',
      env: of('agent_event', { status: 'sent' }),
      want: { kind: 'json', compact: '{"status":"sent"}' },
    },
    {
      name: 'long JSON gets an indented expansion',
      env: of('training_event', longPayload),
      want: {
        kind: 'json',
        compact: JSON.stringify(longPayload),
        full: JSON.stringify(longPayload, null, 2),
      },
    },
  ]

  it.each(cases)('$name', ({ env, want }) => {
    expect(describeActivity(env, titleOf)).toEqual(want)
  })

  it('works without a title lookup', () => {
    const env = of('heartbeat_event', beat({ status: 'sent', preview: 'hi', durationMs: 7 }))
    expect(describeActivity(env)).toEqual({ kind: 'text', label: 'Chat', text: 'Wisp replied in 7 ms — hi', status: 'sent' })
  })

  it('calls the assistant by its name', () => {
    const env = of('heartbeat_event', beat({ status: 'thinking' }))
    expect(describeActivity(env, undefined, 'Nova')).toMatchObject({ text: 'Nova is thinking…' })
  })
})

describe('autonomy envelopes', () => {
  const auto = (payload: JsonObject): StreamEnvelope => ({ ...env(1), stream: 'autonomy', runId: 'auto-3', payload })

  it.each([
    [{ kind: 'tick', tick: 3 }, { text: 'Wisp is looking around…', status: 'thinking' }],
    [{ kind: 'thought', text: 'The build\nis still running' }, { text: 'Wisp thought: The build is still running' }],
    [{ kind: 'decision', decision: 'silent', reason: 'nothing new' }, { text: 'Wisp stayed quiet — nothing new' }],
    [{ kind: 'decision', decision: 'silent' }, { text: 'Wisp stayed quiet' }],
    [{ kind: 'decision', decision: 'speak' }, { text: 'Wisp decided to speak up' }],
    [{ kind: 'skipped', reason: 'cooldown' }, { text: 'Wisp did not look around: you spoke a moment ago' }],
    [{ kind: 'skipped', reason: 'rate-limit' }, { text: 'Wisp did not look around: enough messages this hour' }],
    [{ kind: 'skipped', reason: 'sleepy' }, { text: 'Wisp did not look around: sleepy' }],
    [{ kind: 'error', message: 'no tool called' }, { text: 'Wisp could not think on its own: no tool called', status: 'failed' }],
  ] as [JsonObject, Partial<ActivityView>][])('%j', (payload, want) => {
    expect(describeActivity(auto(payload))).toEqual({ kind: 'text', label: 'Autonomy', ...want })
  })

  it('falls back to the usual views for kinds it does not know', () => {
    expect(describeActivity(auto({ kind: 'dream', text: 'sheep' }))).toEqual({ kind: 'text', label: 'autonomy', text: 'sheep' })
    expect(describeActivity(auto({ kind: 'thought', text: ' ' }))).toEqual({ kind: 'json', compact: '{"kind":"thought","text":" "}' })
  })
})

describe('formatMs', () => {
  it.each([
    [0, '0 ms'],
    [352, '352 ms'],
    [999.4, '999 ms'],
    [999.6, '1.0 s'],
    [1_000, '1.0 s'],
    [59_999, '59.9 s'],
    [59_999.6, '1m 0s'],
    [61_000, '1m 1s'],
  ])('%d → %s', (ms, want) => {
    expect(formatMs(ms)).toBe(want)
  })
})
