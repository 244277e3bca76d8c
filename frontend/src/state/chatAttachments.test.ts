// Attachments in the chat's state and around it: bubbles from saved messages,
// a send's bubbles, the run's notices, the provider's vision, the export
// switch, saving a file, and the desktop picker's answer.

import { describe, expect, it, vi } from 'vitest'
import type { Attachment, Message } from '../api'
import { decodeProvider } from '../api/chatDecode'
import { pickedAttachments } from '../components/AttachButton'
import { visionNotice } from '../components/VisionNotice'
import { exportFormatFor, JSON_AS_ZIP_WITH_ATTACHMENTS, looksLikeZip } from './archive'
import type { DraftChip } from './attachmentDraft'
import { saveAttachment } from './attachmentSave'
import { bubblesFromMessages, chatReducer, extrasByRun, initialChat } from './chat'
import { onBranch } from './messages.test-util'

const png: Attachment = { id: 'att_png', name: 'shot.png', mime: 'image/png', size: 4, sha256: 'a'.repeat(64), kind: 'image' }

describe('attachments in the chat state', () => {
  it("gives a saved question its files, and its reply the files to send again on Retry", () => {
    const views = bubblesFromMessages(
      onBranch([
        { id: 'u1', role: 'user', text: '', timestamp: 1, attachments: [png] },
        { id: 'a1', role: 'assistant', text: 'a picture', timestamp: 2, runId: 'r', status: 'failed', error: 'x' },
        { id: 'u2', role: 'user', text: 'plain', timestamp: 3, attachments: [] },
        { id: 'a2', role: 'assistant', text: 'ok', timestamp: 4, runId: 'r2', status: 'ended' },
      ]) as Message[],
    )
    expect(views[0]!.attachments).toEqual([png])
    expect(views[1]).toMatchObject({ prompt: '', promptAttachments: [png] })
    expect(views[2]!.attachments).toBeUndefined()
    expect(views[3]!.promptAttachments).toBeUndefined()
  })

  it("shows a send's files on its bubble at once", () => {
    const s = chatReducer({ ...initialChat, session: 1 }, { type: 'chat-sent', session: 1, userKey: 'k1', replyKey: 'k2', text: '', ts: 1, attachments: [png] })
    expect(s.messages.map((m) => [m.role, m.attachments, m.promptAttachments])).toEqual([
      ['user', [png], undefined],
      ['assistant', undefined, [png]],
    ])
  })

  it("collects a run's notices", () => {
    const base = { conversationId: 'c', messageType: 'system' as const, createdAt: 1, updatedAt: 1, runId: 'r' }
    const extras = extrasByRun([
      { ...base, id: '1', contentType: 'notification', content: { text: 'llama3 cannot see images: shot.png was not sent' } },
      { ...base, id: '2', contentType: 'notification', content: {} },
    ])
    expect(extras.get('r')?.notices).toEqual(['llama3 cannot see images: shot.png was not sent'])
  })
})

describe('the vision notice', () => {
  const provider = { provider: 'ollama', baseURL: '', model: 'llama3', hasApiKey: false, canRespond: true, ollama: { detected: true, models: [] } }
  const chip = (kind: DraftChip['kind']): DraftChip => ({ key: kind, name: kind, size: 1, kind, status: 'done' })

  it("reads the provider's vision leniently", () => {
    expect(decodeProvider(provider)?.vision).toBeUndefined()
    expect(decodeProvider({ ...provider, vision: 'no' })?.vision).toBe('no')
    expect(decodeProvider({ ...provider, vision: false })?.vision).toBe('no')
    expect(decodeProvider({ ...provider, vision: 'yes' })?.vision).toBe('yes')
    expect(decodeProvider({ ...provider, vision: 'maybe' })?.vision).toBeUndefined()
  })

  it('says so only for an image and a model that cannot see', () => {
    const blind = decodeProvider({ ...provider, vision: 'no' })
    expect(visionNotice([chip('image')], blind)).toBe('llama3 cannot see images: they will not be sent')
    expect(visionNotice([chip('pdf')], blind)).toBeNull()
    expect(visionNotice([chip('image')], decodeProvider(provider))).toBeNull()
    expect(visionNotice([chip('image')], null)).toBeNull()
  })
})

describe('export and import with attachments', () => {
  it('asks for the zip for JSON with attachments only when the switch says so', () => {
    expect(exportFormatFor('json', true)).toBe(JSON_AS_ZIP_WITH_ATTACHMENTS ? 'zip' : 'json')
    expect(exportFormatFor('json', false)).toBe('json')
    expect(exportFormatFor('md', true)).toBe('md')
    expect(exportFormatFor('zip', false)).toBe('zip')
  })

  it('knows a zip by its name or type', () => {
    expect(looksLikeZip({ name: 'wisp-export.ZIP', type: '' })).toBe(true)
    expect(looksLikeZip({ name: 'x', type: 'application/zip' })).toBe(true)
    expect(looksLikeZip({ name: 'wisp.json', type: 'application/json' })).toBe(false)
  })
})

describe('saveAttachment', () => {
  it("saves through the desktop window's binding when it has one", async () => {
    const save = vi.fn(async () => '/home/me/Downloads/shot.png')
    const blob = vi.fn()
    expect(await saveAttachment(png, { desktopSave: save, blob })).toEqual({ kind: 'saved', path: '/home/me/Downloads/shot.png' })
    expect(save).toHaveBeenCalledWith('att_png')
    expect(blob).not.toHaveBeenCalled()
    await expect(saveAttachment(png, { desktopSave: async () => '', blob })).rejects.toThrow('the file was not saved')
  })

  it('else downloads the bytes under the file name, holding the URL a while', async () => {
    vi.useFakeTimers()
    try {
      const release = vi.fn()
      const click = vi.fn()
      const out = await saveAttachment(png, { desktopSave: null, blob: async () => ({ url: 'blob:1', release }), click })
      expect(out).toEqual({ kind: 'downloaded' })
      expect(click).toHaveBeenCalledWith('blob:1', 'shot.png')
      expect(release).not.toHaveBeenCalled()
      vi.runAllTimers()
      expect(release).toHaveBeenCalledOnce()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('pickedAttachments', () => {
  it("decodes the desktop dialog's answer; a cancelled dialog is no files", () => {
    expect(pickedAttachments([png])).toEqual([png])
    expect(pickedAttachments(null)).toEqual([])
    expect(() => pickedAttachments({})).toThrow('not a list of files')
    expect(() => pickedAttachments([{ id: 1 }])).toThrow()
  })
})
