// A recording fetch for the API client's tests.

export interface Call {
  url: string
  method: string
  headers: Record<string, string>
  body: unknown
  signal: AbortSignal | undefined
}

export function fakeFetch(respond: (call: Call) => Response | Promise<Response>) {
  const calls: Call[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const call: Call = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
      signal: init?.signal ?? undefined,
    }
    calls.push(call)
    return respond(call)
  }
  return { fetch, calls }
}

export const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } })

/** A request as a raw-body recorder saw it: the body as it was given (bytes, a Blob, a string). */
export interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: BodyInit | null | undefined
  signal: AbortSignal | undefined
}

/** A recording fetch that keeps each body as it was given (for uploads and raw bodies). */
export function recorder(respond: (s: Sent) => Response | Promise<Response>) {
  const sent: Sent[] = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const s: Sent = {
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body,
      signal: init?.signal ?? undefined,
    }
    sent.push(s)
    return respond(s)
  }
  return { fetch, sent }
}
