// The agent's file edits (docs/files.md), a part of the one API client:
// ApiClient.edits (rest.ts) over the client's own transport. GET
// /api/edits?callId= answers {edits} (what a call changed: none or one); POST
// /api/edits/{id}/undo answers {edit} once the file is back as it was (409 when
// it changed since the edit or was undone already, with the server's words).

import type { AttachmentsTransport } from './restAttachments'
import { decodeFileEditBody, decodeFileEditList, decodeOrNull, type FileEdit } from './wire.gen'

export type { FileEdit } from './wire.gen'

export class EditsClient {
  constructor(private readonly transport: AttachmentsTransport) {}

  /** The edits a call made (none or one). */
  async ofCall(callId: string, signal?: AbortSignal): Promise<FileEdit[]> {
    const body = await this.json('GET', `/api/edits?callId=${encodeURIComponent(callId)}`, signal)
    const list = decodeOrNull(decodeFileEditList, body)
    if (list === null) throw this.transport.malformed('edits')
    return list.edits
  }

  /** Puts the file back as it was before the edit. */
  async undo(id: string): Promise<FileEdit> {
    const body = await this.json('POST', `/api/edits/${encodeURIComponent(id)}/undo`)
    const answer = decodeOrNull(decodeFileEditBody, body)
    if (answer === null) throw this.transport.malformed('edit')
    return answer.edit
  }

  private async json(method: 'GET' | 'POST', path: string, signal?: AbortSignal): Promise<unknown> {
    const init: RequestInit & { headers: Record<string, string> } = { method, headers: { Accept: 'application/json' } }
    if (signal !== undefined) init.signal = signal
    const res = await this.transport.fetch(path, init)
    if (!res.ok) throw await this.transport.failed(res)
    try {
      return JSON.parse(await res.text()) as unknown
    } catch {
      throw this.transport.malformed(method === 'GET' ? 'edits' : 'edit')
    }
  }
}
