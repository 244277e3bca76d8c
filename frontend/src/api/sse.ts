// A Server-Sent Events parser (the WHATWG event-stream format) that is fed
// text in arbitrary chunks, and a reader that drives it from a fetch body.
//
// Lines end in CRLF, LF or CR, and a chunk may end anywhere, even between
// the CR and LF of one line break. "data:" lines of one event are joined
// with "\n"; a blank line dispatches the event; lines starting with ":" are
// comments (the server's heartbeats). An event cut off by the end of the
// stream is dropped, as the format says.

import { yieldToEventLoop } from '../tasks'

export type SseEvent =
  | { kind: 'event'; event: string; data: string; id: string | null }
  | { kind: 'comment'; text: string }

export class SseParser {
  /** The unfinished last line (it holds no line break). */
  private partial = ''
  /** The previous chunk ended with CR, so a leading LF belongs to that break. */
  private afterCR = false
  private data = ''
  private eventType = ''
  private lastId: string | null = null

  /** Feeds one chunk and returns the events and comments it completed, in order. */
  push(chunk: string): SseEvent[] {
    const out: SseEvent[] = []
    if (chunk === '') return out
    let start = 0
    if (this.afterCR && chunk.startsWith('\n')) start = 1
    this.afterCR = false
    // Line breaks are found with indexOf (native), not a character at a time: a
    // chunk can hold thousands of frames. A CR is rare; its position is kept
    // until the search passes it.
    let cr = chunk.indexOf('\r', start)
    for (;;) {
      const lf = chunk.indexOf('\n', start)
      if (cr >= 0 && cr < start) cr = chunk.indexOf('\r', start)
      const i = cr >= 0 && (lf < 0 || cr < lf) ? cr : lf
      if (i < 0) break
      const line = this.partial === '' ? chunk.slice(start, i) : this.partial + chunk.slice(start, i)
      this.partial = ''
      start = i + 1
      if (i === cr) {
        if (start === chunk.length) this.afterCR = true
        else if (chunk.charCodeAt(start) === 10) start++
      }
      this.line(line, out)
    }
    this.partial += chunk.slice(start)
    return out
  }

  private line(line: string, out: SseEvent[]): void {
    if (line === '') {
      this.dispatch(out)
      return
    }
    const colon = line.indexOf(':')
    if (colon === 0) {
      out.push({ kind: 'comment', text: stripSpace(line.slice(1)) })
      return
    }
    const field = colon < 0 ? line : line.slice(0, colon)
    const value = colon < 0 ? '' : stripSpace(line.slice(colon + 1))
    switch (field) {
      case 'data':
        this.data += `${value}\n`
        break
      case 'event':
        this.eventType = value
        break
      case 'id':
        if (!value.includes('\0')) this.lastId = value
        break
      default:
      // "retry" and unknown fields are ignored.
    }
  }

  private dispatch(out: SseEvent[]): void {
    const data = this.data
    const event = this.eventType || 'message'
    this.data = ''
    this.eventType = ''
    if (data === '') return
    out.push({ kind: 'event', event, data: data.slice(0, -1), id: this.lastId })
  }
}

function stripSpace(value: string): string {
  return value.startsWith(' ') ? value.slice(1) : value
}

export class StreamIdleError extends Error {
  constructor(ms: number) {
    super(`no data from the server for ${Math.round(ms / 1000)} s`)
    this.name = 'StreamIdleError'
  }
}

export interface ReadSseOptions {
  /** Give up when nothing at all (not even a heartbeat comment) arrives for this long. */
  idleTimeoutMs?: number
  /**
   * Hand on a chunk's events for at most this long (the consumer's work on
   * them included) before yielding to the event loop; default SLICE_MS.
   */
  sliceMs?: number
}

/**
 * How long a large chunk's events are handed on before the reader lets the
 * page do something else: one chunk can hold thousands of frames (a fast
 * model, a resume, a tab back from the background), and handling them all
 * in one task would block input and drawing for as long.
 */
export const SLICE_MS = 8


/**
 * Reads an event stream body to its end. Read errors (a dropped connection,
 * an aborted fetch) are thrown as they are. Stopping the iteration early
 * cancels the body, which closes the connection. A chunk's events are handed
 * on in slices of about sliceMs, with a yield to the event loop between them.
 */
export async function* readSse(
  body: ReadableStream<Uint8Array>,
  opts: ReadSseOptions = {},
): AsyncGenerator<SseEvent, void, undefined> {
  const sliceMs = opts.sliceMs ?? SLICE_MS
  for await (const events of readSseChunks(body, opts)) yield* sliced(events, sliceMs)
}

/**
 * Reads an event stream body to its end, a read's events at a time (as
 * readSse, without the slicing: a consumer that hands events on one by one
 * slices them itself with SliceClock, and saves a level of async iteration
 * per event).
 */
export async function* readSseChunks(
  body: ReadableStream<Uint8Array>,
  opts: ReadSseOptions = {},
): AsyncGenerator<SseEvent[], void, undefined> {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  const parser = new SseParser()
  let finished = false
  try {
    for (;;) {
      const { value, done } = await readWithin(reader, opts.idleTimeoutMs)
      if (done) break
      const events = parser.push(decoder.decode(value, { stream: true }))
      if (events.length > 0) yield events
    }
    finished = true
    const events = parser.push(decoder.decode())
    if (events.length > 0) yield events
  } finally {
    if (!finished) reader.cancel().catch(() => undefined)
  }
}

/** Times a slice of work: due() says when sliceMs have passed since the last yield to the event loop. */
export class SliceClock {
  private since = performance.now()
  constructor(private readonly sliceMs: number = SLICE_MS) {}

  /** Yields to the event loop if a slice's time has passed, and starts the next slice. */
  async pause(): Promise<void> {
    if (performance.now() - this.since < this.sliceMs) return
    await yieldToEventLoop()
    this.since = performance.now()
  }

  get due(): boolean {
    return performance.now() - this.since >= this.sliceMs
  }
}

/** Yields events, and to the event loop each time sliceMs has passed since the last time. */
async function* sliced(events: SseEvent[], sliceMs: number): AsyncGenerator<SseEvent, void, undefined> {
  const clock = new SliceClock(sliceMs)
  for (const ev of events) {
    if (clock.due) await clock.pause()
    yield ev
  }
}

function readWithin(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  timeoutMs: number | undefined,
): Promise<ReadableStreamReadResult<Uint8Array>> {
  if (timeoutMs === undefined || timeoutMs <= 0) return reader.read()
  let timer: ReturnType<typeof setTimeout> | undefined
  const idle = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StreamIdleError(timeoutMs)), timeoutMs)
  })
  return Promise.race([reader.read(), idle]).finally(() => clearTimeout(timer))
}
