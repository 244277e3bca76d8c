import { describe, expect, it } from 'vitest'
import { ApiError, type ChatFrame, type ChatStream, type SeqFrame } from '../api'
import { runReply, type ReplyApi, type ReplyReport } from './chatRunner'

/** One answer of the fake API: a stream (runEnded: a 204 with no frames), or a refusal. */
type Script = { runId?: string | null; messageId?: string | null; frames: SeqFrame[]; then?: Error; runEnded?: boolean } | Error

function stream(s: Exclude<Script, Error>): ChatStream {
  async function* frames(): AsyncGenerator<SeqFrame, void, undefined> {
    for (const f of s.frames) yield f
    if (s.then !== undefined) throw s.then
  }
  return { runId: s.runId ?? null, runEnded: s.runEnded === true, messageId: s.messageId ?? null, frames: frames() }
}

/** A fake API that answers the n-th open with scripts[n] and records the calls. */
function fakeApi(scripts: Script[]) {
  const calls: string[] = []
  const next = async () => {
    const s = scripts.shift()
    if (s === undefined) throw new Error('unexpected call')
    if (s instanceof Error) throw s
    return stream(s)
  }
  const api: ReplyApi = {
    streamMessage: async (conv, req) => {
      calls.push(`send ${conv} ${req.text}`)
      return next()
    },
    streamRun: async (run, after) => {
      calls.push(`resume ${run} ${after}`)
      return next()
    },
    editMessage: async (conv, id, req) => {
      calls.push(`edit ${conv} ${id} ${req.text}`)
      return next()
    },
    regenerate: async (conv, id) => {
      calls.push(`regenerate ${conv} ${id}`)
      return next()
    },
  }
  return { api, calls }
}

const tok = (seq: number, full: string): SeqFrame => ({ seq, frame: { type: 'token', text: full, fullText: full } })
const done = (seq: number, full: string): SeqFrame => ({
  seq,
  frame: { type: 'done', fullText: full, agentName: 'W', runId: 'run-1', messageId: 'm-2', actionCallbackHistory: [] },
})
const lost = () => new ApiError(0, 'lost the connection')

async function run(scripts: Script[], start: Parameters<typeof runReply>[0]['start'] = { kind: 'send', conversationId: 'c', request: { text: 'hi' } }) {
  const { api, calls } = fakeApi(scripts)
  const reports: ReplyReport[] = []
  const sleeps: number[] = []
  const outcome = await runReply({
    api,
    start,
    signal: new AbortController().signal,
    report: (r) => reports.push(r),
    sleep: async (ms) => {
      sleeps.push(ms)
    },
  })
  const frames = reports.flatMap((r) => (r.type === 'frame' ? [r.frame.type === 'token' ? r.frame.fullText : r.frame.type] : []))
  return { outcome, reports, calls, sleeps, frames }
}

describe('runReply', () => {
  it('reports the run id and every frame until done', async () => {
    const r = await run([{ runId: 'run-1', frames: [tok(1, 'Hi'), tok(2, 'Hi there'), done(3, 'Hi there')] }])
    expect(r.outcome).toBe('done')
    expect(r.reports[0]).toEqual({ type: 'run', runId: 'run-1' })
    expect(r.frames).toEqual(['Hi', 'Hi there', 'done'])
    expect(r.calls).toEqual(['send c hi'])
  })

  it('resumes after the last sequence number when the connection drops', async () => {
    const r = await run([
      { runId: 'run-1', frames: [tok(1, 'a'), tok(2, 'a b')], then: lost() },
      lost(),
      { frames: [tok(3, 'a b c'), done(4, 'a b c')] },
    ])
    expect(r.outcome).toBe('done')
    expect(r.calls).toEqual(['send c hi', 'resume run-1 2', 'resume run-1 2'])
    expect(r.sleeps).toEqual([500, 1500])
    expect(r.frames).toEqual(['a', 'a b', 'a b c', 'done'])
  })

  it('treats a stream that ends without done or error as a drop', async () => {
    const r = await run([{ runId: 'run-1', frames: [tok(1, 'a')] }, { frames: [done(2, 'a')] }])
    expect(r.outcome).toBe('done')
    expect(r.calls).toEqual(['send c hi', 'resume run-1 1'])
  })

  it('gives up after the resume attempts run out', async () => {
    const r = await run([{ runId: 'run-1', frames: [], then: lost() }, lost(), lost(), lost()])
    expect(r.outcome).toBe('failed')
    expect(r.sleeps).toEqual([500, 1500, 4000])
    expect(r.reports.at(-1)).toEqual({ type: 'failed', message: 'lost the connection' })
  })

  it('cannot resume without a run id', async () => {
    const r = await run([{ runId: null, frames: [tok(1, 'a')], then: lost() }])
    expect(r.outcome).toBe('failed')
    expect(r.calls).toHaveLength(1)
  })

  it('asks for the run id when the stream did not name it, then resumes', async () => {
    const { api, calls } = fakeApi([{ runId: null, frames: [tok(1, 'a')], then: lost() }, { frames: [done(2, 'a')] }])
    const reports: ReplyReport[] = []
    const outcome = await runReply({
      api,
      start: { kind: 'send', conversationId: 'c', request: { text: 'hi' } },
      signal: new AbortController().signal,
      report: (r) => reports.push(r),
      sleep: async () => undefined,
      findRunId: async () => 'run-found',
    })
    expect(outcome).toBe('done')
    expect(calls).toEqual(['send c hi', 'resume run-found 1'])
    expect(reports).toContainEqual({ type: 'run', runId: 'run-found' })
  })

  it('fails at once when the server refuses', async () => {
    const r = await run([new ApiError(409, 'a reply is already running')])
    expect(r.outcome).toBe('failed')
    expect(r.reports).toEqual([{ type: 'failed', message: 'a reply is already running' }])
  })

  it('ends on an error frame', async () => {
    const err: ChatFrame = { type: 'error', message: 'model said no' }
    const r = await run([{ runId: 'run-1', frames: [tok(1, 'a'), { seq: 2, frame: err }] }])
    expect(r.outcome).toBe('error')
    expect(r.frames).toEqual(['a', 'error'])
  })

  it('ends, without an error or another attempt, when a resume is answered 204', async () => {
    const r = await run([{ runId: 'run-1', frames: [tok(1, 'a')], then: lost() }, { frames: [], runEnded: true }])
    expect(r.outcome).toBe('ended')
    expect(r.calls).toEqual(['send c hi', 'resume run-1 1'])
    expect(r.sleeps).toEqual([500])
    expect(r.reports.at(-1)).toEqual({ type: 'ended' })
    expect(r.reports.some((x) => x.type === 'failed')).toBe(false)
  })

  it('ends at once when the run to pick up has already ended (204)', async () => {
    const r = await run([{ frames: [], runEnded: true }], { kind: 'resume', runId: 'run-7', after: 12 })
    expect(r.outcome).toBe('ended')
    expect(r.calls).toEqual(['resume run-7 12'])
    expect(r.reports).toEqual([{ type: 'ended' }])
  })

  it('resumes a run from the start for a reloaded page', async () => {
    const r = await run([{ frames: [tok(1, 'x'), done(2, 'x')] }], { kind: 'resume', runId: 'run-7', after: 0 })
    expect(r.calls).toEqual(['resume run-7 0'])
    expect(r.outcome).toBe('done')
  })

  it('stops reporting once aborted', async () => {
    const ctrl = new AbortController()
    const reports: ReplyReport[] = []
    async function* frames(): AsyncGenerator<SeqFrame, void, undefined> {
      yield tok(1, 'a')
      ctrl.abort()
      yield tok(2, 'a b')
    }
    const api: ReplyApi = {
      streamMessage: async () => ({ runId: 'r', runEnded: false, frames: frames() }),
      streamRun: async () => {
        throw new Error('no')
      },
      editMessage: async () => {
        throw new Error('no')
      },
      regenerate: async () => {
        throw new Error('no')
      },
    }
    const outcome = await runReply({ api, start: { kind: 'send', conversationId: 'c', request: { text: 'x' } }, signal: ctrl.signal, report: (r) => reports.push(r) })
    expect(outcome).toBe('aborted')
    expect(reports.filter((r) => r.type === 'frame')).toHaveLength(1)
  })

  it('opens an edit or a regenerate as a send, names its new message, and resumes its run', async () => {
    const edit = await run(
      [{ runId: 'run-1', messageId: 'u2', frames: [tok(1, 'a')], then: lost() }, { frames: [done(2, 'a b')] }],
      { kind: 'edit', conversationId: 'c', messageId: 'u1', request: { text: 'better' } },
    )
    expect(edit.outcome).toBe('done')
    expect(edit.calls).toEqual(['edit c u1 better', 'resume run-1 1'])
    expect(edit.reports.slice(0, 2)).toEqual([
      { type: 'message', messageId: 'u2' },
      { type: 'run', runId: 'run-1' },
    ])
    const again = await run([{ runId: 'run-2', frames: [done(1, 'x')] }], { kind: 'regenerate', conversationId: 'c', messageId: 'a1' })
    expect(again.calls).toEqual(['regenerate c a1'])
    expect(again.reports.some((r) => r.type === 'message')).toBe(false)
  })
})
