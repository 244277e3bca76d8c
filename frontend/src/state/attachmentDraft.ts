// The files of the message being written (the composer's chips), outside
// React: each file dropped, pasted or picked is uploaded at once
// (POST /api/attachments); a chip shows it uploading, uploaded or refused
// (the server's message). ✕ removes a chip and aborts its upload. An image
// shows its own bytes through a local object URL before (and after) the
// upload: nothing is fetched for it. The desktop window's picker hands
// attachments it uploaded itself.

import { ApiError, ATTACHMENT_MAX_BYTES, type Attachment, type AttachmentKind, type UploadOptions } from '../api'
import { Store } from './store'

export type ChipStatus = 'uploading' | 'done' | 'error'

export interface DraftChip {
  /** Stable React key. */
  key: string
  name: string
  size: number
  /** The file's kind as the page guesses it until the server has said (from the bytes). */
  kind: AttachmentKind
  status: ChipStatus
  /** The server's message when it refused the file. */
  error?: string
  /** A local object URL of an image's own bytes (no network). */
  preview?: string
  /** What the server stored, once uploaded. */
  attachment?: Attachment
}

export interface Uploader {
  uploadAttachment(file: Blob, name: string, opts?: UploadOptions): Promise<Attachment>
}

export interface DraftDeps {
  /** The API client now (null before the server is known). */
  api(): Uploader | null
  /** Object URLs for local previews (the browser's by default). */
  urls?: { create(blob: Blob): string; revoke(url: string): void }
}

const browserUrls = {
  create: (blob: Blob) => URL.createObjectURL(blob),
  revoke: (url: string) => URL.revokeObjectURL(url),
}

/** The kind a file looks like before the server sniffs it (for its icon and preview only). */
export function guessKind(type: string, name: string): AttachmentKind {
  if (/^image\/(png|jpeg|gif|webp|bmp)$/.test(type)) return 'image'
  if (type === 'application/pdf' || /\.pdf$/i.test(name)) return 'pdf'
  if (type.startsWith('text/') || /\.(txt|md|markdown|log|csv|json|ya?ml|toml|[ch]|go|py|rs|tsx?|jsx?|sh|html?|css|xml)$/i.test(name)) return 'text'
  return 'file'
}

/** Sizes in binary units: 1536 → "1.5 KiB", 20 971 520 → "20 MiB". */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`
  const units = ['KiB', 'MiB', 'GiB']
  let v = bytes / 1024
  let i = 0
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024
    i++
  }
  return `${v < 10 ? v.toFixed(1).replace(/\.0$/, '') : Math.round(v)} ${units[i]}`
}

export const TOO_BIG_MESSAGE = `the file is larger than ${formatSize(ATTACHMENT_MAX_BYTES)}, the most an attachment can be`

let draftKeys = 0

export class AttachmentDraft extends Store<readonly DraftChip[]> {
  private readonly uploads = new Map<string, AbortController>()
  private readonly urls: NonNullable<DraftDeps['urls']>

  constructor(private readonly deps: DraftDeps) {
    super([])
    this.urls = deps.urls ?? browserUrls
  }

  /** Adds files (dropped, pasted, chosen) and starts uploading each. */
  add(files: Iterable<File>): void {
    for (const file of files) this.addOne(file)
  }

  /** Adds attachments already uploaded (the desktop picker's, or an edited message's own). */
  addUploaded(attachments: Iterable<Attachment>): void {
    const chips = [...attachments].map(
      (a): DraftChip => ({ key: `a${++draftKeys}`, name: a.name, size: a.size, kind: a.kind, status: 'done', attachment: a }),
    )
    if (chips.length > 0) this.set((s) => [...s, ...chips])
  }

  /** Removes a chip (aborting its upload, dropping its preview). */
  remove(key: string): void {
    const chip = this.get().find((c) => c.key === key)
    if (chip === undefined) return
    this.uploads.get(key)?.abort()
    this.uploads.delete(key)
    if (chip.preview !== undefined) this.urls.revoke(chip.preview)
    this.set((s) => s.filter((c) => c.key !== key))
  }

  /** Removes every chip (after a send; or when the composer goes). */
  clear(): void {
    for (const chip of this.get()) this.remove(chip.key)
  }

  /** Some upload is still on its way: the message cannot be sent yet. */
  get uploading(): boolean {
    return uploading(this.get())
  }

  private addOne(file: File): void {
    const key = `f${++draftKeys}`
    const kind = guessKind(file.type, file.name)
    const chip: DraftChip = { key, name: file.name || 'attachment', size: file.size, kind, status: 'uploading' }
    if (kind === 'image') chip.preview = this.urls.create(file)
    if (file.size > ATTACHMENT_MAX_BYTES) {
      this.set((s) => [...s, { ...chip, status: 'error', error: TOO_BIG_MESSAGE }])
      return
    }
    const api = this.deps.api()
    if (api === null) {
      this.set((s) => [...s, { ...chip, status: 'error', error: 'not connected to the Wisp server yet' }])
      return
    }
    const ctrl = new AbortController()
    this.uploads.set(key, ctrl)
    this.set((s) => [...s, chip])
    api.uploadAttachment(file, chip.name, { signal: ctrl.signal }).then(
      (attachment) => {
        if (ctrl.signal.aborted) return
        this.uploads.delete(key)
        this.update(key, (c) => ({ ...c, status: 'done', kind: attachment.kind, name: attachment.name, size: attachment.size, attachment }))
      },
      (err: unknown) => {
        if (ctrl.signal.aborted) return
        this.uploads.delete(key)
        this.update(key, (c) => ({ ...c, status: 'error', error: uploadError(err) }))
      },
    )
  }

  private update(key: string, fn: (c: DraftChip) => DraftChip): void {
    this.set((s) => s.map((c) => (c.key === key ? fn(c) : c)))
  }
}

function uploadError(err: unknown): string {
  if (err instanceof ApiError || err instanceof Error) return err.message
  return String(err)
}

/** Some chip is still uploading. */
export function uploading(chips: readonly DraftChip[]): boolean {
  return chips.some((c) => c.status === 'uploading')
}

/** The uploaded attachments of the chips, in their order. */
export function readyAttachments(chips: readonly DraftChip[]): Attachment[] {
  return chips.flatMap((c) => (c.status === 'done' && c.attachment !== undefined ? [c.attachment] : []))
}

/** Some chip was refused: it must be removed before sending (the message would go without it). */
export function hasRefused(chips: readonly DraftChip[]): boolean {
  return chips.some((c) => c.status === 'error')
}
