import { describe, expect, it } from 'vitest'
import { ApiError, type Attachment, type UploadOptions } from '../api'
import { AttachmentDraft, TOO_BIG_MESSAGE, formatSize, guessKind, hasRefused, readyAttachments, uploading } from './attachmentDraft'

interface Pending {
  name: string
  type: string
  signal: AbortSignal | undefined
  resolve(a: Attachment): void
  reject(err: unknown): void
}

function fakeUploads() {
  const pending: Pending[] = []
  const made: string[] = []
  const revoked: string[] = []
  const api = {
    uploadAttachment: (file: Blob, name: string, opts: UploadOptions = {}) =>
      new Promise<Attachment>((resolve, reject) => {
        pending.push({ name, type: file.type, signal: opts.signal, resolve, reject })
        opts.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')))
      }),
  }
  const urls = {
    create: () => {
      made.push(`blob:${made.length + 1}`)
      return `blob:${made.length}`
    },
    revoke: (u: string) => void revoked.push(u),
  }
  return { pending, made, revoked, draft: new AttachmentDraft({ api: () => api, urls }) }
}

const att = (over: Partial<Attachment>): Attachment => ({ id: 'att_1', name: 'a.png', mime: 'image/png', size: 4, sha256: 'ab', kind: 'image', ...over })
const settle = () => new Promise<void>((r) => setTimeout(r, 0))

describe('AttachmentDraft', () => {
  it('uploads each file at once: a chip uploading with a local preview of an image, then done with what the server stored', async () => {
    const { draft, pending, made } = fakeUploads()
    draft.add([new File(['png'], 'shot.png', { type: 'image/png' }), new File(['%PDF'], 'report.pdf', { type: 'application/pdf' })])
    expect(draft.get().map((c) => [c.name, c.kind, c.status, c.preview])).toEqual([
      ['shot.png', 'image', 'uploading', 'blob:1'],
      ['report.pdf', 'pdf', 'uploading', undefined],
    ])
    expect(made).toEqual(['blob:1'])
    expect(draft.uploading).toBe(true)
    expect(pending.map((p) => [p.name, p.type])).toEqual([
      ['shot.png', 'image/png'],
      ['report.pdf', 'application/pdf'],
    ])
    pending[0]!.resolve(att({ id: 'att_1', name: 'shot.png' }))
    await settle()
    expect(draft.get()[0]).toMatchObject({ status: 'done', attachment: { id: 'att_1' } })
    expect(uploading(draft.get())).toBe(true)
    pending[1]!.resolve(att({ id: 'att_2', name: 'report.pdf', kind: 'pdf', mime: 'application/pdf', size: 900, pages: 1 }))
    await settle()
    expect(draft.uploading).toBe(false)
    expect(readyAttachments(draft.get()).map((a) => a.id)).toEqual(['att_1', 'att_2'])
    expect(draft.get()[1]).toMatchObject({ kind: 'pdf', size: 900 })
  })

  it("shows the server's refusal on the chip, and a file over the limit without uploading it", async () => {
    const { draft, pending } = fakeUploads()
    draft.add([new File(['x'], 'huge.log')])
    pending[0]!.reject(new ApiError(413, 'the message has more than 50 MiB of files'))
    await settle()
    expect(draft.get()[0]).toMatchObject({ status: 'error', error: 'the message has more than 50 MiB of files' })
    expect(hasRefused(draft.get())).toBe(true)

    const big = new File(['x'], 'big.bin')
    Object.defineProperty(big, 'size', { value: 20 * 1024 * 1024 + 1 })
    draft.add([big])
    expect(pending).toHaveLength(1)
    expect(draft.get()[1]).toMatchObject({ status: 'error', error: TOO_BIG_MESSAGE })
    expect(TOO_BIG_MESSAGE).toBe('the file is larger than 20 MiB, the most an attachment can be')
  })

  it('✕ aborts an upload on its way and drops its preview; clear removes everything', async () => {
    const { draft, pending, revoked } = fakeUploads()
    draft.add([new File(['png'], 'shot.png', { type: 'image/png' })])
    const key = draft.get()[0]!.key
    draft.remove(key)
    expect(pending[0]!.signal?.aborted).toBe(true)
    expect(revoked).toEqual(['blob:1'])
    await settle()
    expect(draft.get()).toEqual([])

    draft.addUploaded([att({ id: 'att_9', name: 'picked.txt', kind: 'text' })])
    expect(draft.get()).toMatchObject([{ name: 'picked.txt', status: 'done', kind: 'text' }])
    draft.clear()
    expect(draft.get()).toEqual([])
  })

  it('says so when there is no server yet', () => {
    const draft = new AttachmentDraft({ api: () => null, urls: { create: () => 'blob:x', revoke: () => undefined } })
    draft.add([new File(['x'], 'a.txt', { type: 'text/plain' })])
    expect(draft.get()[0]).toMatchObject({ status: 'error', error: 'not connected to the Wisp server yet' })
  })
})

describe('guessKind and formatSize', () => {
  it('guesses the kind for the icon from the type or the name', () => {
    expect(guessKind('image/png', 'a')).toBe('image')
    expect(guessKind('image/svg+xml', 'a.svg')).toBe('file')
    expect(guessKind('', 'Report.PDF')).toBe('pdf')
    expect(guessKind('', 'main.go')).toBe('text')
    expect(guessKind('application/zip', 'a.zip')).toBe('file')
  })

  it('writes sizes in binary units', () => {
    expect(formatSize(0)).toBe('0 B')
    expect(formatSize(1023)).toBe('1023 B')
    expect(formatSize(1536)).toBe('1.5 KiB')
    expect(formatSize(20 * 1024 * 1024)).toBe('20 MiB')
    expect(formatSize(123 * 1024 * 1024)).toBe('123 MiB')
    expect(formatSize(3 * 1024 ** 4)).toBe('3072 GiB')
  })
})
