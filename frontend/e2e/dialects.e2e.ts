// Other clients' dialects against the real server binary and the fake LLM, each with
// the client library its users have (pinned in package.json): the `openai` npm SDK
// on POST /v1/chat/completions, Anthropic's TypeScript SDK on /v1/messages,
// `fetch-event-stream` (what seed 003 recommends) on POST /api/chat, `eventsource`
// on a run's chunks (seed 001) and `fast-json-patch` on its state patches. No
// browser. Needs the server binary (WISP_BIN) and the fake LLM (WISP_FAKELLM_BIN).

import Anthropic from '@anthropic-ai/sdk'
import { existsSync } from 'node:fs'
import { EventSource, type FetchLike } from 'eventsource'
import { applyPatch, type Operation } from 'fast-json-patch'
import { stream } from 'fetch-event-stream'
import OpenAI from 'openai'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { CLEAN_ENV, serverPerTest } from './server'

describe('other dialects', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('answers the openai SDK on /v1/chat/completions, streaming and not, with typed errors', async () => {
    llm = await startFakeLLM({
      script: [{ text: ['Hello ', 'from Wisp'] }, { text: ['Once ', 'upon ', 'a'], stopReason: 'max_tokens' }],
    })
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
    const client = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: s.token, maxRetries: 0 })
    const messages = [
      { role: 'system' as const, content: 'you are a test' },
      { role: 'user' as const, content: 'hi' },
    ]

    const done = await client.chat.completions.create({ model: 'Wisp', messages, max_tokens: 64 })
    expect(done.object).toBe('chat.completion')
    expect(done.choices[0]?.message.content).toBe('Hello from Wisp')
    expect(done.choices[0]?.finish_reason).toBe('stop')
    expect(done.usage?.total_tokens).toBe((done.usage?.prompt_tokens ?? 0) + (done.usage?.completion_tokens ?? 0))

    const stream = await client.chat.completions.create({ model: 'Wisp', messages, stream: true, stream_options: { include_usage: true } })
    let text = ''
    let finish: string | null = null
    let usage = 0
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
      usage = chunk.usage?.total_tokens ?? usage
    }
    expect(text).toBe('Once upon a')
    expect(finish).toBe('length')
    expect(usage).toBeGreaterThan(0)

    const models = await client.models.list()
    expect(models.data.map((m) => m.id)).toEqual(['Wisp'])

    // Errors the SDK types.
    await expect(client.chat.completions.create({ model: 'Wisp', messages: [{ role: 'assistant', content: 'no question' }] })).rejects.toBeInstanceOf(
      OpenAI.BadRequestError,
    )
    const stranger = new OpenAI({ baseURL: `${s.url}/v1`, apiKey: 'wrong', maxRetries: 0 })
    await expect(stranger.chat.completions.create({ model: 'Wisp', messages })).rejects.toBeInstanceOf(OpenAI.AuthenticationError)
  })

  it("answers Anthropic's SDK on /v1/messages like Anthropic: streaming and not, max_tokens, models, typed errors", async () => {
    llm = await startFakeLLM({
      script: [{ text: ['Hello ', 'from Wisp'] }, { text: ['Once ', 'upon'], stopReason: 'max_tokens' }],
    })
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
    const client = new Anthropic({ baseURL: s.url, apiKey: s.token, maxRetries: 0 })
    const messages = [{ role: 'user' as const, content: 'hi' }]

    const msg = await client.messages.create({ model: 'Wisp', max_tokens: 64, messages })
    expect(msg.content.map((b) => (b.type === 'text' ? b.text : '')).join('')).toBe('Hello from Wisp')
    expect(msg.stop_reason).toBe('end_turn')
    expect(msg.usage.output_tokens).toBeGreaterThan(0)

    const streamed = client.messages.stream({ model: 'Wisp', max_tokens: 2, messages })
    let text = ''
    streamed.on('text', (t) => (text += t))
    const final = await streamed.finalMessage()
    expect(text).toBe('Once upon')
    expect(final.stop_reason).toBe('max_tokens')

    expect((await client.models.retrieve('Wisp')).id).toBe('Wisp')
    expect((await client.models.list()).data.map((m) => m.id)).toEqual(['Wisp'])
    await expect(client.models.retrieve('claude-nope')).rejects.toBeInstanceOf(Anthropic.NotFoundError)
    // max_tokens is required, as at Anthropic.
    const noLimit = { model: 'Wisp', messages } as unknown as Anthropic.MessageCreateParamsNonStreaming
    await expect(client.messages.create(noLimit)).rejects.toBeInstanceOf(Anthropic.BadRequestError)
    const stranger = new Anthropic({ baseURL: s.url, apiKey: 'wrong', maxRetries: 0 })
    const refused = await stranger.messages.create({ model: 'Wisp', max_tokens: 8, messages }).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(Anthropic.AuthenticationError)
    expect((refused as InstanceType<typeof Anthropic.AuthenticationError>).error).toMatchObject({
      type: 'error',
      error: { type: 'authentication_error' },
    })
  })

  it("keeps a run's state: its state patches, applied with fast-json-patch, give the state read back", async () => {
    llm = await startFakeLLM({
      script: [{ text: ['Waving.'], toolCalls: [{ id: 'call_wave', name: 'PLAY_EMOTE', arguments: { emoteId: 'wave' } }] }, { text: ['Done.'] }],
    })
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
    const json = { 'Content-Type': 'application/json', ...s.auth }
    const conv = (await (await fetch(`${s.url}/api/conversations`, { method: 'POST', headers: json, body: '{}' })).json()) as {
      conversation: { id: string }
    }
    const frames = await stream(`${s.url}/api/conversations/${conv.conversation.id}/messages/stream?dialect=delta`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ text: 'wave' }),
    })
    type Frame = { type: string; patches?: Operation[]; eventName?: string; data?: { emoteId?: string } }
    const seen: Frame[] = []
    for await (const e of frames) if (e.data) seen.push(JSON.parse(e.data) as Frame)
    expect(seen.at(-1)?.type).toBe('done')
    const runId = (seen.at(-1) as { runId?: string }).runId ?? ''
    expect(seen.find((f) => f.type === 'custom' && f.eventName === 'emote')?.data?.emoteId).toBe('wave')

    const fold = (list: Frame[]) =>
      list.filter((f) => f.type === 'state_patch').reduce<object>((doc, f) => applyPatch(doc, f.patches ?? [], true, false).newDocument, {})
    const read = (await (await fetch(`${s.url}/api/runs/${runId}/state`, { headers: s.auth })).json()) as { state: object; seq: number }
    expect(read.state).toEqual({ avatar: { emote: 'wave', name: 'Wave' } })
    expect(fold(seen)).toEqual(read.state)

    // The same patches as seed 001's state_patch chunks.
    const chunks: Frame[] = []
    for await (const e of await stream(`${s.url}/api/runs/${runId}/chunks`, { headers: s.auth })) if (e.data) chunks.push(JSON.parse(e.data) as Frame)
    expect(chunks.some((c) => c.type === 'state_patch')).toBe(true)
    expect(fold(chunks)).toEqual(read.state)
  })

  it('answers seed 003 on /api/chat with fetch-event-stream: init, deltas, context, and a session that goes on', async () => {
    // One scripted reply; the next requests (the title's too) get the fake model's echo.
    llm = await startFakeLLM({ script: [{ text: ['Hello ', 'there'] }] })
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
    const ask = async (body: object) => {
      const events = await stream(`${s.url}/api/chat`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...s.auth },
        body: JSON.stringify(body),
      })
      const seen: { event: string; data: Record<string, unknown> }[] = []
      for await (const e of events) {
        if (e.data) seen.push({ event: e.event ?? 'message', data: JSON.parse(e.data) as Record<string, unknown> })
      }
      return seen
    }
    const first = await ask({ messages: [{ role: 'user', content: 'hi' }] })
    expect(first[0]?.event).toBe('init')
    const session = first[0]?.data.session_id
    expect(typeof session).toBe('string')
    expect(first.filter((e) => e.event === 'delta').map((e) => e.data.v).join('')).toBe('Hello there')
    expect(first.at(-1)?.event).toBe('context')

    const second = await ask({ session_id: session, messages: [{ role: 'user', content: 'more' }] })
    expect(second[0]?.data.session_id).toBe(session)
    expect(second.filter((e) => e.event === 'delta').map((e) => e.data.v).join('')).toBe('You said: more')

    const answer = await fetch(`${s.url}/api/chat`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...s.auth },
      body: JSON.stringify({ stream: false, session_id: session, messages: [{ role: 'user', content: 'once more' }] }),
    })
    expect(answer.status).toBe(200)
    const body = (await answer.json()) as { session_id: string; status: string; message: string }
    expect(body.session_id).toBe(session)
    expect(body.status).toBe('done')
  })

  it("follows a run's chunks with eventsource, which resumes a dropped stream by Last-Event-ID with no gap and no duplicate", async () => {
    const words = 'one two three four five six seven eight nine ten eleven twelve'.split(' ').map((w, i) => (i === 0 ? w : ` ${w}`))
    llm = await startFakeLLM({ script: [{ text: words, delay: '80ms' }] }) // about a second: still running when the source connects
    const s = await start({ env: { ...CLEAN_ENV, ...fakeModelEnv(llm.url) } })
    const json = { 'Content-Type': 'application/json', ...s.auth }
    const conv = (await (await fetch(`${s.url}/api/conversations`, { method: 'POST', headers: json, body: '{}' })).json()) as {
      conversation: { id: string }
    }
    const started = await fetch(`${s.url}/api/conversations/${conv.conversation.id}/messages/stream?dialect=delta`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ text: 'count' }),
    })
    const runId = started.headers.get('X-Wisp-Run-Id') ?? ''
    expect(runId).not.toBe('')
    await started.body?.cancel() // the run goes on without this reader

    // The first connection is cut after three text chunks; eventsource reconnects itself.
    const asked: (string | undefined)[] = []
    let cut: (() => void) | null = null
    const authorized: FetchLike = async (url, init) => {
      asked.push(init.headers['Last-Event-ID'])
      const res = await fetch(url, { ...init, headers: { ...init.headers, ...s.auth } })
      if (asked.length > 1 || res.body === null) return res
      let fail: (e: Error) => void = () => {}
      const failed = new Promise<never>((_, reject) => (fail = reject))
      cut = () => fail(new Error('the test cut the connection'))
      const reader = res.body.getReader()
      const body = new ReadableStream<Uint8Array>({
        async pull(controller) {
          try {
            const { value, done } = await Promise.race([reader.read(), failed])
            if (done) controller.close()
            else controller.enqueue(value)
          } catch (err) {
            controller.error(err)
          }
        },
      })
      return new Response(body, { status: res.status, headers: res.headers })
    }
    const ids: string[] = []
    let text = ''
    await new Promise<void>((resolve, reject) => {
      const es = new EventSource(`${s.url}/api/runs/${runId}/chunks`, { fetch: authorized })
      es.onmessage = (e) => {
        ids.push(e.lastEventId)
        const chunk = JSON.parse(e.data) as { type: string; delta?: string }
        if (chunk.type === 'text_delta') text += chunk.delta ?? ''
        if (chunk.type === 'text_delta' && ids.length === 3) cut?.()
        if (chunk.type === 'output') {
          es.close()
          resolve()
        }
      }
      es.onerror = (e) => {
        // A closed source never comes back (a refused request); a failing one keeps trying.
        if (es.readyState === EventSource.CLOSED || asked.length > 3) reject(new Error(`eventsource failed: ${e.message ?? e.code}`))
      }
    })
    expect(text).toBe(words.join(''))
    expect(new Set(ids).size).toBe(ids.length)
    expect(asked[0]).toBeUndefined()
    expect(asked[1]).toBe(ids[2])
  })
})

