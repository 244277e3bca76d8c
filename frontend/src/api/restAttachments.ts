// Attachments (docs/attachments.md), a part of the one API client:
// ApiClient.attachments (rest.ts) is an AttachmentsClient over the client's
// own transport, so every failure is the client's ApiError and every request
// carries its auth headers. POST /api/attachments?name= takes a file's raw
// bytes (the one non-JSON body: it says X-Wisp-Upload: 1); the bytes and the
// thumbnails are fetched with the headers and shown through object URLs (a
// token never goes into a URL), kept in a small cache by id (objectUrls.ts).

import { ObjectUrlCache, type ObjectUrl } from './objectUrls'
import { decodeAttachmentCreated, decodeOrNull, type Attachment } from './wire.gen'

/** The header that marks an upload as the page's own (a cross-site form cannot send it). */
export const UPLOAD_HEADER = 'X-Wisp-Upload'

/** The biggest file the server takes by default (docs/attachments.md): a pre-check only, the server decides. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024

/** What an AttachmentsClient needs of the API client (rest.ts gives it; this module does not import it). */
export interface AttachmentsTransport {
  /**
   * fetch on the API's origin with the client's auth headers added to init's;
   * a network failure is thrown as the client's ApiError(0), an abort as it is.
   */
  fetch(path: string, init: RequestInit & { headers: Record<string, string> }): Promise<Response>
  /** The client's error for an answer that is not a 2xx (its {"error"} message when it has one). */
  failed(res: Response): Promise<Error>
  /** The client's error for a 2xx body that is not its shape. */
  malformed(what: string): Error
}

export interface UploadOptions {
  /** Aborting it (✕ on the chip) cancels the upload: the promise rejects with the abort. */
  signal?: AbortSignal
}

export class AttachmentsClient {
  private readonly full: ObjectUrlCache
  private readonly thumbs: ObjectUrlCache

  constructor(private readonly transport: AttachmentsTransport) {
    this.full = new ObjectUrlCache((id) => this.bytes(`/api/attachments/${encodeURIComponent(id)}`))
    this.thumbs = new ObjectUrlCache((id) => this.bytes(`/api/attachments/${encodeURIComponent(id)}/thumbnail`))
  }

  /** Uploads a file's bytes as they are; resolves to what the server stored (its kind sniffed from the bytes). */
  async upload(file: Blob, name: string, opts: UploadOptions = {}): Promise<Attachment> {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      'Content-Type': file.type === '' ? 'application/octet-stream' : file.type,
      [UPLOAD_HEADER]: '1',
    }
    const init: RequestInit & { headers: Record<string, string> } = { method: 'POST', headers, body: file }
    if (opts.signal !== undefined) init.signal = opts.signal
    const res = await this.transport.fetch(`/api/attachments?name=${encodeURIComponent(name)}`, init)
    if (!res.ok) throw await this.transport.failed(res)
    let parsed: unknown
    try {
      parsed = JSON.parse(await res.text())
    } catch (err) {
      if (opts.signal?.aborted) throw err
      throw this.transport.malformed('attachment')
    }
    const created = decodeOrNull(decodeAttachmentCreated, parsed)
    if (created === null) throw this.transport.malformed('attachment')
    return created.attachment
  }

  /** The attachment's bytes as an object URL (release it when no longer shown). */
  blob(id: string): Promise<ObjectUrl> {
    return this.full.acquire(id)
  }

  /** An image's thumbnail (at most 320 px) as an object URL (release it when no longer shown). */
  thumbnail(id: string): Promise<ObjectUrl> {
    return this.thumbs.acquire(id)
  }

  private async bytes(path: string): Promise<Blob> {
    const res = await this.transport.fetch(path, { method: 'GET', headers: { Accept: '*/*' } })
    if (!res.ok) throw await this.transport.failed(res)
    return res.blob()
  }
}
