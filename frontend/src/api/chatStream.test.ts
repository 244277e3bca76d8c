// chatFrames: typed frames with their sequence numbers from an SSE body, in
// slices that let other tasks run when one read holds many frames.

import { describe, expect, it } from 'vitest'
import { postTask } from '../tasks'
import { chatFrames } from './chatStream'

function bodyOf(text: string): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      controller.enqueue(new TextEncoder().encode(text))
      controller.close()
    },
  })
}

const token = (id: number, text: string) => `id: ${id}\ndata: ${JSON.stringify({ type: 'token', text })}\n\n`

describe('chatFrames', () => {
  it('decodes frames with their ids, skips comments and bad frames, and stops at done', async () => {
    const text = `: heartbeat\n\n${token(1, 'a')}data: not json\n\n${token(2, 'b')}id: 3\ndata: {"type":"done","fullText":"ab","agentName":"","runId":"r","messageId":"m","actionCallbackHistory":[],"usage":{"inputTokens":0,"outputTokens":0,"promptTokens":0,"completionTokens":0,"totalTokens":0}}\n\n${token(4, 'late')}`
    const warn = console.warn
    console.warn = () => undefined
    const got: unknown[] = []
    try {
      for await (const f of chatFrames(bodyOf(text))) got.push([f.seq, f.frame.type])
    } finally {
      console.warn = warn
    }
    expect(got).toEqual([
      [1, 'token'],
      [2, 'token'],
      [3, 'done'],
    ])
  })

  it('hands a read of many frames on in slices, letting other tasks run between them', async () => {
    const text = Array.from({ length: 100 }, (_, i) => token(i + 1, 'x')).join('')
    const taskRanWhileReading = async (sliceMs: number): Promise<boolean> => {
      let ran = false
      postTask(() => (ran = true))
      let n = 0
      for await (const f of chatFrames(bodyOf(text), { sliceMs })) {
        expect(f.frame.type).toBe('token')
        const until = performance.now() + 1
        while (performance.now() < until) {
          // the consumer's work on a frame
        }
        n++
      }
      expect(n).toBe(100)
      return ran
    }
    expect(await taskRanWhileReading(1e9), 'one slice: nothing else runs').toBe(false)
    await new Promise<void>((resolve) => postTask(resolve))
    expect(await taskRanWhileReading(5), 'slices of 5 ms: the task runs').toBe(true)
  })
})
