// Other clients' dialects against the real server binary and the fake LLM, each with
// its own official client library (pinned in package.json): the `openai` npm SDK on
// POST /v1/chat/completions. No browser. Needs the server binary (WISP_BIN) and the
// fake LLM (WISP_FAKELLM_BIN).

import { existsSync } from 'node:fs'
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
})
