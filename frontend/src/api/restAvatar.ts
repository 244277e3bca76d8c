// The user's character (docs/emotes.md "Your own character (VRM)"), a part of
// the one API client: ApiClient.avatar (rest.ts) is an AvatarClient over the
// same transport as the attachments (restAttachments.ts), so every failure is
// the client's ApiError with the server's {"error"} message and every
// request carries the auth headers. POST /api/avatar?name= takes the .vrm
// file's raw bytes and says X-Wisp-Upload: 1.

import { UPLOAD_HEADER, type AttachmentsTransport } from './restAttachments'
import { decodeAvatar, decodeOrNull, type Avatar } from './wire.gen'

/** The built-in character's GLB (served by every Wisp). */
export const BUILTIN_AVATAR_PATH = '/avatar/wisp.glb'

/** The biggest VRM the server takes by default: a pre-check only, the server decides. */
export const AVATAR_MAX_BYTES = 64 * 1024 * 1024

/** What an upload says it is. */
export const VRM_CONTENT_TYPE = 'model/gltf-binary'

/** The built-in character, as GET /api/avatar describes it (for servers without that route). */
export const BUILTIN_AVATAR: Avatar = { kind: 'builtin', url: BUILTIN_AVATAR_PATH }

export class AvatarClient {
  constructor(private readonly transport: AttachmentsTransport) {}

  /** GET /api/avatar: the character every window shows. */
  get(): Promise<Avatar> {
    return this.call('GET', '/api/avatar')
  }

  /** POST /api/avatar?name=: stores a VRM as the character (the server validates it: 400 with its reason, 413 when too big). */
  upload(file: Blob, name: string): Promise<Avatar> {
    return this.call('POST', `/api/avatar?name=${encodeURIComponent(name)}`, file)
  }

  /** DELETE /api/avatar: back to the built-in character. */
  useBuiltin(): Promise<Avatar> {
    return this.call('DELETE', '/api/avatar')
  }

  private async call(method: string, path: string, body?: Blob): Promise<Avatar> {
    const headers: Record<string, string> = { Accept: 'application/json' }
    const init: RequestInit & { headers: Record<string, string> } = { method, headers }
    if (body !== undefined) {
      // A VRM is a GLB whatever the browser calls a .vrm file (some call it nothing, some a VRML model).
      headers['Content-Type'] = VRM_CONTENT_TYPE
      headers[UPLOAD_HEADER] = '1'
      init.body = body
    }
    const res = await this.transport.fetch(path, init)
    if (!res.ok) throw await this.transport.failed(res)
    let parsed: unknown
    try {
      parsed = JSON.parse(await res.text())
    } catch {
      throw this.transport.malformed('avatar')
    }
    const avatar = decodeOrNull(decodeAvatar, parsed)
    if (avatar === null) throw this.transport.malformed('avatar')
    return avatar
  }
}
