// The memory editor's store: load, edit, the size bound, save with the base
// version (409: kept, said, never overwritten), the memory-updated frame
// (taken when nothing is edited, said when something is), history and undo.

import { describe, expect, it, vi } from 'vitest'
import { ApiError, type Memory, type MemorySaveResult, type MemoryVersion } from '../api'
import { memoryExample as memory, memoryHistoryExample as history } from '../api/memory.test-util'
import { routeFrame } from './frameTable'
import { byteLength, isEdited, isOverLimit, MemoryStore, type MemoryApi } from './memoryStore'
import { WispPage } from './wispPage'

function fakeApi(over: Partial<MemoryApi> = {}) {
  return {
    get: vi.fn<() => Promise<Memory>>(over.get ?? (async () => memory)),
    save: vi.fn<(text: string, base: number) => Promise<MemorySaveResult>>(
      over.save ?? (async (text, base) => ({ ok: true, memory: { ...memory, text, version: base + 1 } })),
    ),
    history: vi.fn<() => Promise<MemoryVersion[]>>(over.history ?? (async () => history)),
    undo: vi.fn<() => Promise<Memory>>(over.undo ?? (async () => ({ ...memory, text: 'older', version: 9 }))),
  }
}

async function loaded(api = fakeApi()) {
  const store = new MemoryStore()
  store.setApi(api)
  await store.load()
  return { store, api }
}

describe('MemoryStore', () => {
  it('loads the memory into the editor, and its history', async () => {
    const { store } = await loaded()
    const s = store.get()
    expect(s.memory).toEqual(memory)
    expect(s.draft).toBe(memory.text)
    expect(s.history).toEqual(history)
    expect(isEdited(s)).toBe(false)
    expect(s.loading).toBe(false)
  })

  it('says why it could not load', async () => {
    const { store } = await loaded(fakeApi({ get: async () => Promise.reject(new ApiError(0, 'cannot reach the Wisp server')) }))
    expect(store.get()).toMatchObject({ memory: null, loading: false, loadError: 'cannot reach the Wisp server' })
  })

  it('saves an edit over the version it was made from, then says Saved', async () => {
    const { store, api } = await loaded()
    store.edit('# New\n')
    expect(isEdited(store.get())).toBe(true)
    await store.save()
    expect(api.save.mock.calls).toEqual([['# New\n', 3]])
    expect(store.get()).toMatchObject({ draft: '# New\n', saved: true, saving: false, conflict: null })
    expect(store.get().memory?.version).toBe(4)
    expect(isEdited(store.get())).toBe(false)
    // Typing again clears "Saved".
    store.edit('# New\nmore')
    expect(store.get().saved).toBe(false)
  })

  it('counts UTF-8 bytes and refuses to save over the bound, without asking the server', async () => {
    expect(byteLength('é€😀')).toBe(2 + 3 + 4)
    const { store, api } = await loaded(fakeApi({ get: async () => ({ ...memory, maxBytes: 8 }) }))
    store.edit('12345678')
    expect(isOverLimit(store.get())).toBe(false)
    store.edit('1234567é')
    expect(isOverLimit(store.get())).toBe(true)
    await store.save()
    expect(api.save).not.toHaveBeenCalled()
  })

  it('keeps the edit and says so when the memory changed elsewhere (409): nothing is overwritten', async () => {
    const { store, api } = await loaded(fakeApi({ save: async () => ({ ok: false, error: 'the memory changed since version 3' }) }))
    store.edit('mine')
    await store.save()
    expect(api.save).toHaveBeenCalledTimes(1)
    expect(store.get()).toMatchObject({ draft: 'mine', saved: false, saving: false, conflict: 'the memory changed since version 3' })
    expect(store.get().memory).toEqual(memory)
    // Reload takes the server's memory (dropping the edit) and clears the conflict.
    api.get.mockResolvedValueOnce({ ...memory, text: 'theirs', version: 5 })
    await store.load()
    expect(store.get()).toMatchObject({ draft: 'theirs', conflict: null })
    expect(store.get().memory?.version).toBe(5)
  })

  it('shows the error of a failed save and keeps the edit', async () => {
    const { store } = await loaded(fakeApi({ save: async () => Promise.reject(new ApiError(413, 'the memory is over 16384 bytes')) }))
    store.edit('mine')
    await store.save()
    expect(store.get()).toMatchObject({ draft: 'mine', error: 'the memory is over 16384 bytes', saving: false })
  })

  it('takes a memory-updated frame at once when nothing is edited', async () => {
    const { store, api } = await loaded()
    store.receive({ ...memory, text: 'from the agent', version: 4 })
    expect(store.get()).toMatchObject({ draft: 'from the agent', newer: null })
    expect(store.get().memory?.version).toBe(4)
    // The history is read again.
    await vi.waitFor(() => expect(api.history).toHaveBeenCalledTimes(2))
  })

  it('keeps unsaved edits when a newer memory arrives, and says so; Revert takes the newer one', async () => {
    const { store } = await loaded()
    store.edit('my edit')
    const newer = { ...memory, text: 'from the agent', version: 4 }
    store.receive(newer)
    expect(store.get()).toMatchObject({ draft: 'my edit', newer })
    expect(store.get().memory).toEqual(memory)
    store.revert()
    expect(store.get()).toMatchObject({ draft: 'from the agent', newer: null, memory: newer })
  })

  it('does not call its own save, whose frame comes before the answer, a change made elsewhere', async () => {
    let answer: (r: MemorySaveResult) => void = () => undefined
    const { store } = await loaded(fakeApi({ save: () => new Promise((resolve) => (answer = resolve)) }))
    store.edit('mine')
    const saving = store.save()
    const saved = { ...memory, text: 'mine', version: 4 }
    store.receive(saved)
    expect(store.get().newer).toBeNull()
    answer({ ok: true, memory: saved })
    await saving
    expect(store.get()).toMatchObject({ memory: saved, draft: 'mine', saved: true, newer: null })
  })

  it('ignores the frame of its own save, and frames before the memory is open', async () => {
    const store = new MemoryStore()
    store.receive(memory)
    expect(store.get().memory).toBeNull()
    const { store: open } = await loaded()
    open.edit('x')
    const before = open.get()
    open.receive(memory)
    expect(open.get()).toBe(before)
  })

  it('opened again with an edit kept, asks again without dropping the edit', async () => {
    const { store, api } = await loaded()
    store.edit('kept')
    api.get.mockResolvedValueOnce({ ...memory, text: 'newer', version: 4 })
    await store.open()
    expect(store.get()).toMatchObject({ draft: 'kept', newer: { text: 'newer', version: 4 } })
    store.revert()
    await store.open()
    expect(api.get).toHaveBeenCalledTimes(3)
    expect(store.get().draft).toBe(memory.text)
  })

  it('undoes the last change, and says when there is none', async () => {
    const { store, api } = await loaded()
    store.edit('unsaved')
    await store.undo()
    expect(api.undo).toHaveBeenCalledTimes(1)
    expect(store.get()).toMatchObject({ draft: 'older', undoing: false, error: null })
    api.undo.mockRejectedValueOnce(new ApiError(409, 'nothing to undo'))
    await store.undo()
    expect(store.get()).toMatchObject({ undoing: false, error: 'There is no earlier version to go back to.' })
  })

  it('is fed by the page: the memory-updated frame reaches it, and resync asks again', async () => {
    const page = new WispPage()
    const api = fakeApi()
    page.memory.setApi(api)
    await page.memory.load()
    routeFrame(page, { type: 'memory-updated', memory: { ...memory, text: 'via the socket', version: 7 } })
    expect(page.memory.get().draft).toBe('via the socket')
    api.get.mockResolvedValueOnce({ ...memory, text: 'after a resync', version: 8 })
    await page.memory.refresh()
    expect(page.memory.get().draft).toBe('after a resync')
  })
})
