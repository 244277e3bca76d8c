import { describe, expect, it } from 'vitest'
import { postTask } from '../tasks'
import { readSse, SseParser, StreamIdleError, type SseEvent } from './sse'

function parseAll(chunks: string[]): SseEvent[] {
  const parser = new SseParser()
  return chunks.flatMap((c) => parser.push(c))
}

/** Every way of cutting text in two and in three. */
function splits(text: string): string[][] {
  const out: string[][] = [[text]]
  for (let i = 0; i <= text.length; i++) {
    out.push([text.slice(0, i), text.slice(i)])
    for (let j = i; j <= text.length; j++) out.push([text.slice(0, i), text.slice(i, j), text.slice(j)])
  }
  return out
}

const STREAM =
  ': heartbeat\n\n' +
  'id: 1\ndata: {"type":"token","text":"Hi","fullText":"Hi"}\n\n' +
  ': heartbeat\n' +
  'id: 2\r\ndata: {"type":"token",\r\ndata:  "text":" there","fullText":"Hi there"}\r\n\r\n' +
  'id:3\rdata:{"type":"done"}\r\r'

const EXPECTED: SseEvent[] = [
  { kind: 'comment', text: 'heartbeat' },
  { kind: 'event', event: 'message', id: '1', data: '{"type":"token","text":"Hi","fullText":"Hi"}' },
  { kind: 'comment', text: 'heartbeat' },
  { kind: 'event', event: 'message', id: '2', data: '{"type":"token",\n "text":" there","fullText":"Hi there"}' },
  { kind: 'event', event: 'message', id: '3', data: '{"type":"done"}' },
]

describe('SseParser', () => {
  it('parses LF, CRLF and CR line ends, comments and multi-line data', () => {
    expect(parseAll([STREAM])).toEqual(EXPECTED)
  })

  it('gives the same result wherever the chunks are cut', () => {
    for (const chunks of splits(STREAM)) expect(parseAll(chunks), JSON.stringify(chunks)).toEqual(EXPECTED)
  })

  it('handles one character at a time', () => {
    expect(parseAll([...STREAM])).toEqual(EXPECTED)
  })

  it('treats a CR at the end of a chunk and an LF at the start of the next as one break', () => {
    expect(parseAll(['data: a\r', '\ndata: b\r', '\n\r', '\n'])).toEqual([
      { kind: 'event', event: 'message', id: null, data: 'a\nb' },
    ])
    // but a lone CR followed later by LF is two breaks: the blank line dispatches
    expect(parseAll(['data: a\r', 'x\n'])).toEqual([])
    expect(parseAll(['data: a\r', '\n', '\n'])).toHaveLength(1)
  })

  it('keeps the last id for later events and ignores ids with NUL', () => {
    expect(parseAll(['id: 7\ndata: a\n\ndata: b\n\nid: x\0y\ndata: c\n\n']).map((e) => e.kind === 'event' && e.id)).toEqual([
      '7',
      '7',
      '7',
    ])
  })

  it('strips one leading space only, and reads fields without a colon', () => {
    expect(parseAll(['data:  two spaces\ndata\ndata:\n\n'])).toEqual([
      { kind: 'event', event: 'message', id: null, data: ' two spaces\n\n' },
    ])
  })

  it('does not dispatch without data, keeps event names, ignores retry and unknown fields', () => {
    expect(parseAll(['id: 1\n\nretry: 100\nfoo: bar\n\nevent: ping\ndata: x\n\ndata: y\n\n'])).toEqual([
      { kind: 'event', event: 'ping', id: '1', data: 'x' },
      { kind: 'event', event: 'message', id: '1', data: 'y' },
    ])
  })

  it('keeps an unfinished event until its blank line arrives', () => {
    const parser = new SseParser()
    expect(parser.push('data: part')).toEqual([])
    expect(parser.push('ial\n')).toEqual([])
    expect(parser.push('\n')).toEqual([{ kind: 'event', event: 'message', id: null, data: 'partial' }])
  })
})

function bodyOf(chunks: (string | Uint8Array)[]): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const c of chunks) controller.enqueue(typeof c === 'string' ? enc.encode(c) : c)
      controller.close()
    },
  })
}

async function collect(body: ReadableStream<Uint8Array>, idleTimeoutMs?: number): Promise<SseEvent[]> {
  const out: SseEvent[] = []
  for await (const ev of readSse(body, idleTimeoutMs === undefined ? {} : { idleTimeoutMs })) out.push(ev)
  return out
}

describe('readSse', () => {
  it('decodes UTF-8 split inside a character and drops a cut-off last event', async () => {
    const bytes = new TextEncoder().encode('data: héllo ✓\n\ndata: cut')
    const cut = 8 // inside "é"
    const events = await collect(bodyOf([bytes.slice(0, cut), bytes.slice(cut, cut + 7), bytes.slice(cut + 7)]))
    expect(events).toEqual([{ kind: 'event', event: 'message', id: null, data: 'héllo ✓' }])
  })

  it('fails a stream that goes quiet, and cancels the body', async () => {
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode(': heartbeat\n'))
      },
      cancel() {
        cancelled = true
      },
    })
    await expect(collect(body, 20)).rejects.toBeInstanceOf(StreamIdleError)
    expect(cancelled).toBe(true)
  })

  it('cancels the body when the reader stops early', async () => {
    let cancelled = false
    const body = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('data: 1\n\ndata: 2\n\n'))
      },
      cancel() {
        cancelled = true
      },
    })
    for await (const ev of readSse(body)) {
      expect(ev).toMatchObject({ data: '1' })
      break
    }
    expect(cancelled).toBe(true)
  })

  it('hands a large chunk on in slices, letting other tasks run between them', async () => {
    const chunk = new TextEncoder().encode('data: x\n\n'.repeat(100))
    /** Reads every event, busy for 1 ms on each; says whether a task posted at the start ran before the end. */
    const timerRanWhileReading = async (sliceMs: number): Promise<boolean> => {
      // A task on the queue the reader yields through (a timer may wait behind its tasks in Node).
      let timer = false
      postTask(() => (timer = true))
      let n = 0
      for await (const ev of readSse(bodyOf([chunk]), { sliceMs })) {
        expect(ev).toMatchObject({ data: 'x' })
        const until = performance.now() + 1
        while (performance.now() < until) {
          // the consumer's work on a frame
        }
        n++
      }
      expect(n).toBe(100)
      return timer
    }
    expect(await timerRanWhileReading(1e9), 'one slice: nothing else runs').toBe(false)
    await new Promise<void>((resolve) => postTask(resolve)) // the first round's task has run
    expect(await timerRanWhileReading(5), 'slices of 5 ms: the timer runs').toBe(true)
  })
})
