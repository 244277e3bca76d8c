// Attachments on the whole app (WispProvider + App) against the fake server:
// files dropped on the chat, pasted or picked (the file input, or the desktop
// window's dialog) become chips that upload at once; Send waits for them and
// may send files alone; the user's bubble shows them (thumbnails, file chips);
// an edit keeps them; the vision notice.

import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Attachment, Message } from '../api'
import { bubbles, startApp, type MountedApp } from '../state/appHarness.test-util'
import type { FakeElement } from '../state/fakeDom.test-util'
import { click, keyDown, typeInto } from '../state/fakeEvents.test-util'
import { FakeServer, json } from '../state/fakeServer.test-util'
import { onBranch } from '../state/messages.test-util'

vi.mock('./Markdown', async () => {
  const { createElement } = await import('react')
  return { Markdown: ({ text }: { text: string }) => createElement('div', { className: 'md' }, text) }
})
vi.mock('./AvatarPanel', () => ({ AvatarPanel: () => null }))
vi.mock('./EmotePicker', () => ({ EmotePicker: () => null }))
vi.mock('./TerminalDock', () => ({ TerminalDock: () => null }))

const CONV = 'c1'
const at = '2025-11-21T09:00:00.000Z'
const png: Attachment = { id: 'att_png', name: 'shot.png', mime: 'image/png', size: 2048, sha256: 'a'.repeat(64), kind: 'image', width: 64, height: 48 }
const pdf: Attachment = { id: 'att_pdf', name: 'report.pdf', mime: 'application/pdf', size: 900, sha256: 'b'.repeat(64), kind: 'pdf', pages: 1 }

interface Upload {
  name: string
  answer(res: Response): void
}

/** The fake server with the attachment routes: uploads wait for the test's answer. */
function makeServer(history: Partial<Message>[] = []) {
  const server = new FakeServer()
  server.conversations = [{ id: CONV, title: 'Open chat', roomId: '', createdAt: at, updatedAt: at, unread: false }]
  server.messages.set(CONV, onBranch([
    { id: 'u0', role: 'user', text: 'hello', timestamp: 1, source: 'chat', runId: 'run-0' },
    { id: 'a0', role: 'assistant', text: 'hi', timestamp: 2, runId: 'run-0', status: 'ended', source: 'chat' },
    ...(history as Message[]),
  ]))
  const uploads: Upload[] = []
  let provider: unknown = { provider: 'ollama', baseURL: '', model: 'llama3', hasApiKey: false, canRespond: true, ollama: { detected: true, models: [] } }
  let thumbnails = true
  server.extra = (method, path) => {
    if (method === 'POST' && path.startsWith('/api/attachments?name=')) {
      const name = new URLSearchParams(path.split('?')[1]).get('name') ?? ''
      return new Promise<Response>((resolve) => uploads.push({ name, answer: resolve }))
    }
    if (method === 'GET' && path === '/api/provider') return json(200, provider)
    const bytes = /^\/api\/attachments\/([^/]+)(\/thumbnail)?$/.exec(path)
    if (method === 'GET' && bytes !== null) {
      if (bytes[2] !== undefined && !thumbnails) return json(404, { error: 'no thumbnail' })
      return new Response(`${bytes[2] ?? 'bytes'} of ${bytes[1]}`, { headers: { 'Content-Type': 'image/png' } })
    }
    return null
  }
  return {
    server,
    uploads,
    setProvider: (p: unknown) => (provider = p),
    noThumbnails: () => (thumbnails = false),
  }
}

const one = (root: FakeElement, testId: string): FakeElement => {
  const found = root.byTestId(testId)
  if (found.length !== 1) throw new Error(`${found.length} elements with data-testid=${testId}`)
  return found[0]!
}
const chips = (a: MountedApp) => a.root.findAll((el) => el.hasAttribute('data-attachment-chip'))
const chatView = (a: MountedApp) => a.root.findAll((el) => el.getAttribute('class') === 'chat-view')[0]!
const disabled = (el: FakeElement) => el.hasAttribute('disabled')

/** A native event of type on target with its extra fields, delivered where React listens. */
function fire(a: MountedApp, type: string, target: FakeElement, extra: Record<string, unknown>): { prevented: boolean } {
  const state = { prevented: false }
  a.root.dispatchEvent({
    type,
    target,
    bubbles: true,
    cancelable: true,
    timeStamp: Date.now(),
    get defaultPrevented() {
      return state.prevented
    },
    preventDefault() {
      state.prevented = true
    },
    stopPropagation() {},
    ...extra,
  } as never)
  return state
}

const files = (...list: File[]) => ({ types: ['Files'], files: list, dropEffect: 'none' })
const image = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'shot.png', { type: 'image/png' })
const report = () => new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' })

describe('attachments in the chat', () => {
  let app: MountedApp | null = null
  afterEach(async () => {
    await app?.unmount()
    app = null
  })

  it('drops files on the chat (not text), uploads them, waits for them, and sends them alone', async () => {
    const { server, uploads } = makeServer()
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    const view = chatView(a)

    // Text dragged over the chat is not a drop of files.
    await a.act(() => void fire(a, 'dragenter', view, { dataTransfer: { types: ['text/plain'], files: [] } }))
    expect(a.root.byTestId('drop-target')).toHaveLength(0)

    await a.act(() => void fire(a, 'dragenter', view, { dataTransfer: files() }))
    expect(a.root.byTestId('drop-target')).toHaveLength(1)
    const over = fire(a, 'dragover', view, { dataTransfer: files() })
    expect(over.prevented).toBe(true)
    let drop = { prevented: false }
    await a.act(() => void (drop = fire(a, 'drop', view, { dataTransfer: files(image(), report()) })))
    expect(drop.prevented).toBe(true)
    expect(a.root.byTestId('drop-target')).toHaveLength(0)

    await a.until(() => uploads.length === 2, 'the uploads')
    expect(uploads.map((u) => u.name)).toEqual(['shot.png', 'report.pdf'])
    expect(chips(a).map((c) => [c.getAttribute('data-kind'), c.getAttribute('data-uploading')])).toEqual([
      ['image', 'true'],
      ['pdf', 'true'],
    ])
    // The image shows its own bytes (a local object URL), the PDF an icon.
    expect(one(chips(a)[0]!, 'chip-thumb').getAttribute('src')).toMatch(/^blob:/)
    expect(chips(a)[1]!.byTestId('chip-thumb')).toHaveLength(0)
    expect(chips(a)[1]!.textContent).toContain('report.pdf')

    // Send waits for every upload, text or not.
    const composer = one(a.root, 'composer')
    await a.act(() => typeInto(a.root, composer, 'what is in these?'))
    expect(disabled(one(a.root, 'send'))).toBe(true)
    await a.act(() => typeInto(a.root, composer, ''))
    await a.act(() => uploads[0]!.answer(json(201, { attachment: png })))
    expect(chips(a)[0]!.getAttribute('data-uploading')).toBe('false')
    expect(disabled(one(a.root, 'send'))).toBe(true)
    await a.act(() => uploads[1]!.answer(json(201, { attachment: pdf })))
    expect(chips(a).map((c) => c.getAttribute('data-uploading'))).toEqual(['false', 'false'])
    expect(chips(a)[1]!.textContent).toContain('900 B')

    // Files and no text may be sent.
    expect(disabled(one(a.root, 'send'))).toBe(false)
    await a.act(() => keyDown(a.root, composer, 'Enter'))
    await a.until(() => server.sends.length === 1, 'the send')
    const sent = server.requests.find((r) => r.path.includes('/messages/stream'))
    expect(sent?.body).toMatchObject({ text: '', attachments: ['att_png', 'att_pdf'] })
    expect(chips(a)).toHaveLength(0)

    // The user's bubble shows them: the image's thumbnail from the server, the PDF as a chip.
    const user = a.root.byTestId('message').filter((el) => el.getAttribute('data-role') === 'user').at(-1)!
    await a.until(() => user.byTestId('attachment-thumb').length === 1, 'the thumbnail')
    const items = user.findAll((el) => el.hasAttribute('data-attachment-id'))
    expect(items.map((el) => el.getAttribute('data-attachment-id'))).toEqual(['att_png', 'att_pdf'])
    expect(one(user, 'attachment-thumb').getAttribute('src')).toMatch(/^blob:/)
    expect(server.count('GET', '/api/attachments/att_png/thumbnail')).toBe(1)
    expect(items[1]!.textContent).toContain('report.pdf')
    expect(items[1]!.textContent).toContain('1 page')
    expect(user.byTestId('message-text')).toHaveLength(0)
  })

  it('attaches the files of a paste, and leaves a paste of text to the text box', async () => {
    const { server, uploads } = makeServer()
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    const composer = one(a.root, 'composer')
    let paste = { prevented: false }
    await a.act(() => void (paste = fire(a, 'paste', composer, { clipboardData: { files: [], types: ['text/plain'], getData: () => 'words' } })))
    expect(paste.prevented).toBe(false)
    expect(chips(a)).toHaveLength(0)

    await a.act(() => void (paste = fire(a, 'paste', composer, { clipboardData: { files: [image()], types: ['Files'], getData: () => '' } })))
    expect(paste.prevented).toBe(true)
    await a.until(() => uploads.length === 1, 'the upload')
    expect(chips(a)).toHaveLength(1)

    // ✕ while it uploads cancels it.
    await a.act(() => click(a.root, one(chips(a)[0]!, 'attachment-remove')))
    expect(chips(a)).toHaveLength(0)
  })

  it("shows the server's refusal on the chip, and Send waits for it to be removed", async () => {
    const { server, uploads } = makeServer()
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    await a.act(() => void fire(a, 'drop', chatView(a), { dataTransfer: files(report()) }))
    await a.until(() => uploads.length === 1, 'the upload')
    await a.act(() => uploads[0]!.answer(json(413, { error: 'the file is larger than 20 MiB' })))
    const chip = chips(a)[0]!
    expect(chip.getAttribute('data-status')).toBe('error')
    expect(one(chip, 'attachment-error').textContent).toBe('the file is larger than 20 MiB')
    await a.act(() => typeInto(a.root, one(a.root, 'composer'), 'hi'))
    expect(disabled(one(a.root, 'send'))).toBe(true)
    await a.act(() => click(a.root, one(chip, 'attachment-remove')))
    expect(disabled(one(a.root, 'send'))).toBe(false)
  })

  it('📎 opens the file input in a browser, and the desktop dialog (files it uploaded) in the window', async () => {
    const { server, uploads } = makeServer()
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    const input = one(a.root, 'attach-input')
    const opened = vi.fn()
    Object.assign(input, { click: opened, type: 'file' })
    await a.act(() => click(a.root, one(a.root, 'attach')))
    expect(opened).toHaveBeenCalledOnce()
    Object.assign(input, { files: [report()] })
    await a.act(() => void fire(a, 'change', input, {}))
    await a.until(() => uploads.length === 1, 'the upload')
    expect(uploads[0]!.name).toBe('report.pdf')

    const pick = vi.fn(async () => [png])
    ;(window as { go?: unknown }).go = { desktop: { Desktop: { PickFiles: pick } } }
    await a.act(() => click(a.root, one(a.root, 'attach')))
    expect(pick).toHaveBeenCalledOnce()
    expect(opened).toHaveBeenCalledOnce()
    await a.until(() => chips(a).length === 2, 'the picked file')
    // Uploaded by the window: done at once, its thumbnail the server's.
    expect(chips(a)[1]!.getAttribute('data-uploading')).toBe('false')
    expect(uploads).toHaveLength(1)
    await a.until(() => chips(a)[1]!.byTestId('chip-thumb').length === 1, 'its thumbnail')
    expect(server.count('GET', '/api/attachments/att_png/thumbnail')).toBe(1)
  })

  it("shows a saved message's files, falling back to the full image without a thumbnail, and an edit keeps them", async () => {
    const { server, noThumbnails } = makeServer([
      { id: 'u1', role: 'user', text: 'look', timestamp: 3, source: 'chat', runId: 'run-1', attachments: [png, pdf] },
      { id: 'a1', role: 'assistant', text: 'I see 1 image', timestamp: 4, runId: 'run-1', status: 'ended', source: 'chat' },
    ])
    noThumbnails()
    const a = (app = await startApp(server, { id: CONV, bubbles: 4, rows: 1 }))
    const user = a.root.byTestId('message').find((el) => el.getAttribute('data-message-id') === 'u1')!
    await a.until(() => user.byTestId('attachment-thumb').length === 1, 'the image')
    expect(server.count('GET', '/api/attachments/att_png/thumbnail')).toBe(1)
    expect(server.count('GET', '/api/attachments/att_png')).toBe(1)
    expect(bubbles(a)[2]!.text).toBe('look')

    // Edit: the files show, one is removed, the new version says which it keeps.
    await a.act(() => click(a.root, one(user, 'edit-message')))
    const editor = one(a.root, 'message-editor')
    expect(editor.findAll((el) => el.hasAttribute('data-attachment-chip')).map((el) => el.getAttribute('data-attachment-id'))).toEqual([
      'att_png',
      'att_pdf',
    ])
    await a.act(() => click(a.root, editor.byTestId('attachment-remove')[1]!))
    await a.act(() => click(a.root, one(a.root, 'message-editor-send')))
    await a.until(() => server.sends.length === 1, 'the edit')
    expect(server.requests.find((r) => r.path.includes('/edit'))?.body).toMatchObject({ text: 'look', attachments: ['att_png'] })
  })

  it('says the model cannot see images when the provider says so and an image is attached', async () => {
    const { server, uploads, setProvider } = makeServer()
    setProvider({ provider: 'ollama', baseURL: '', model: 'llama3', hasApiKey: false, canRespond: true, ollama: { detected: true, models: [] }, vision: 'no' })
    const a = (app = await startApp(server, { id: CONV, bubbles: 2, rows: 1 }))
    await a.act(() => void fire(a, 'drop', chatView(a), { dataTransfer: files(report()) }))
    await a.until(() => uploads.length === 1, 'the upload')
    expect(a.root.byTestId('vision-notice')).toHaveLength(0)
    await a.act(() => void fire(a, 'drop', chatView(a), { dataTransfer: files(image()) }))
    await a.until(() => a.root.byTestId('vision-notice').length === 1, 'the notice')
    expect(one(a.root, 'vision-notice').textContent).toBe('llama3 cannot see images: they will not be sent')
  })
})
