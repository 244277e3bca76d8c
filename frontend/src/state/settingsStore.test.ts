// The settings store's snapshot is never older than what the last save answered:
// a read asked before a save and answered after it is dropped.

import { describe, expect, it } from 'vitest'
import type { ApiClient, ConfigSnapshot } from '../api'
import { decodeConfigSnapshot } from '../api/configDecode'
import { SNAPSHOT } from '../api/config.test-util'
import { SettingsStore, shownValues } from './settingsStore'

const snapshot = (openAtLogin: boolean): ConfigSnapshot => {
  const snap = decodeConfigSnapshot({ ...SNAPSHOT, config: { ...SNAPSHOT.config, desktop: { openAtLogin } } })
  if (snap === null) throw new Error('the fixture does not decode')
  return snap
}

describe('SettingsStore', () => {
  it('keeps what a save answered over a read asked before it', async () => {
    let answerRead: (s: ConfigSnapshot) => void = () => {}
    const reads: Promise<ConfigSnapshot>[] = [
      Promise.resolve(snapshot(false)),
      new Promise((resolve) => {
        answerRead = resolve
      }),
    ]
    const api = {
      getConfig: () => reads.shift() ?? Promise.resolve(snapshot(true)),
      patchConfig: () => Promise.resolve(snapshot(true)),
    } as unknown as ApiClient
    const store = new SettingsStore({ api: () => api, restartRequired: () => {}, refreshStatus: () => Promise.resolve() })
    await store.load()
    const stale = store.load() // asked while the file still says off (a config-changed frame)
    store.setValue('desktop.openAtLogin', true)
    await store.save()
    answerRead(snapshot(false)) // ...answered after the save
    await stale
    expect(store.get().snap?.config.desktop.openAtLogin).toBe(true)
    expect(shownValues(store.get())['desktop.openAtLogin']).toBe(true)
  })
})
