import { describe, expect, it } from 'vitest'
import { ApiError, type ExportFile, type ExportFormat } from '../api'
import { errorText, exportConversations, exportMessage, importSummary, type ExportSink } from './archive'

function fakeApi() {
  const calls: [string | null, ExportFormat][] = []
  return {
    calls,
    exportConversations: async (id: string | null, format: ExportFormat): Promise<ExportFile> => {
      calls.push([id, format])
      return { filename: `wisp-${id ?? 'all'}.${format}`, blob: new Blob(['x']) }
    },
  }
}

describe('exportConversations', () => {
  it('downloads in a browser', async () => {
    const api = fakeApi()
    const downloads: ExportFile[] = []
    const sink: ExportSink = { desktopSave: null, download: (f) => downloads.push(f) }
    const outcome = await exportConversations(api, 'c1', 'md', sink)
    expect(outcome).toEqual({ kind: 'downloaded', filename: 'wisp-c1.md' })
    expect(api.calls).toEqual([['c1', 'md']])
    expect(downloads.map((f) => f.filename)).toEqual(['wisp-c1.md'])
    expect(exportMessage(outcome)).toBe('Downloaded wisp-c1.md')
  })

  it('lets the desktop window save it, without fetching it into the page', async () => {
    const api = fakeApi()
    const saved: [string, string][] = []
    const sink: ExportSink = {
      desktopSave: async (id, format) => (saved.push([id, format]), '/home/ada/Downloads/wisp-conversations.json'),
      download: () => {
        throw new Error('no download in the desktop window')
      },
    }
    const outcome = await exportConversations(api, null, 'json', sink)
    expect(outcome).toEqual({ kind: 'saved', path: '/home/ada/Downloads/wisp-conversations.json' })
    expect(saved).toEqual([['', 'json']])
    expect(api.calls).toEqual([])
    expect(exportMessage(outcome)).toBe('Saved to /home/ada/Downloads/wisp-conversations.json')
  })

  it("fails with the desktop's error, or when it saved nothing", async () => {
    const refuse: ExportSink = { desktopSave: async () => Promise.reject('conversation not found'), download: () => {} }
    const err = await exportConversations(fakeApi(), 'x', 'json', refuse).catch((e: unknown) => e)
    expect(errorText(err)).toBe('conversation not found')
    const nothing: ExportSink = { desktopSave: async () => '', download: () => {} }
    await expect(exportConversations(fakeApi(), 'x', 'json', nothing)).rejects.toThrow('the export was not saved')
  })
})

describe('a JSON export too big for its files inline', () => {
  it('is asked again as the zip in a browser, and only after a 413', async () => {
    const calls: ExportFormat[] = []
    const api = {
      exportConversations: async (_id: string | null, format: ExportFormat): Promise<ExportFile> => {
        calls.push(format)
        if (format === 'json') throw new ApiError(413, 'the files are too big to carry inline: export it as a .zip (format=zip)')
        return { filename: `wisp.${format}`, blob: new Blob(['x']) }
      },
    }
    const sink: ExportSink = { desktopSave: null, download: () => {} }
    expect(await exportConversations(api, 'c1', 'json', sink)).toEqual({ kind: 'downloaded', filename: 'wisp.zip' })
    expect(calls).toEqual(['json', 'zip'])
    const refused = { exportConversations: async (): Promise<ExportFile> => Promise.reject(new ApiError(404, 'not found')) }
    await expect(exportConversations(refused, 'c1', 'json', sink)).rejects.toThrow('not found')
  })

  it('is saved as the zip by the desktop window when its error names format=zip', async () => {
    const saved: string[] = []
    const sink: ExportSink = {
      desktopSave: async (_id, format) => {
        saved.push(format)
        if (format === 'json') return Promise.reject('too big inline: export it as a .zip (format=zip)')
        return '/home/ada/Downloads/wisp.zip'
      },
      download: () => {},
    }
    expect(await exportConversations(fakeApi(), 'c1', 'json', sink)).toEqual({ kind: 'saved', path: '/home/ada/Downloads/wisp.zip' })
    expect(saved).toEqual(['json', 'zip'])
  })
})

describe('importSummary', () => {
  const r = (imported: number, skipped: number, failed = 0) => ({
    imported,
    skipped,
    conversations: [],
    failed: Array.from({ length: failed }, (_, i) => ({ id: `f${i}`, title: 'T', error: 'e' })),
  })
  it('says what came in, what was there and what failed', () => {
    expect(importSummary(r(3, 0))).toBe('Imported 3 conversations.')
    expect(importSummary(r(1, 1))).toBe('Imported 1 conversation. 1 conversation was already here and left as it was.')
    expect(importSummary(r(0, 2))).toBe('2 conversations were already here and left as they were.')
    expect(importSummary(r(0, 0, 1))).toBe('1 conversation could not be imported.')
    expect(importSummary(r(0, 0))).toBe('The file has no conversations.')
  })
})

describe('errorText', () => {
  it('reads every kind of failure', () => {
    expect(errorText(new ApiError(400, 'format is required'))).toBe('format is required')
    expect(errorText(new Error('boom'))).toBe('boom')
    expect(errorText('refused by the window')).toBe('refused by the window')
    expect(errorText(undefined)).toBe('something went wrong')
  })
})
