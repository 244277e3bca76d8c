// Settings → Avatar: the character every window shows. The built-in one, or
// the user's own VRM: the file is read in the page first (the stage's own
// loader, avatar/vrmCheck.ts, loaded lazily with three.js), so a file that is
// not a VRM is refused here and never sent; then uploaded (POST /api/avatar)
// and checked again by the server, whose refusal is shown as it is. Every
// window switches on the avatar-changed frame.

import './avatar.css'
import { useRef, useState, type ChangeEvent } from 'react'
import { AVATAR_MAX_BYTES, type Avatar } from '../api'
import { useAvatar } from '../state/useAvatar'
import { useApi } from '../state/WispProvider'

export function AvatarSettings() {
  const api = useApi()
  const { avatar, put } = useAvatar()
  const [busy, setBusy] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const input = useRef<HTMLInputElement>(null)

  const run = async (what: string, work: () => Promise<Avatar | null>) => {
    setBusy(what)
    setError(null)
    try {
      const next = await work()
      if (next !== null) put(next)
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err))
    } finally {
      setBusy(null)
      if (input.current !== null) input.current.value = '' // the same file again is a new choice
    }
  }

  const onFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0]
    if (file === undefined || api === null) return
    void run('Reading the file…', async () => {
      if (file.size > AVATAR_MAX_BYTES) {
        throw new Error(`This file is larger than ${AVATAR_MAX_BYTES / (1024 * 1024)} MiB`)
      }
      const { checkVRM } = await import('../avatar/vrmCheck')
      try {
        await checkVRM(await file.arrayBuffer())
      } catch (err) {
        throw new Error(`This file is not a VRM model: ${err instanceof Error ? err.message : String(err)}`)
      }
      setBusy('Uploading…')
      return api.avatar.upload(file, file.name)
    })
  }

  const builtin = avatar === null || avatar.kind === 'builtin'
  return (
    <section className="settings-section" aria-labelledby="settings-avatar-title" data-testid="settings-section-avatar">
      <h3 id="settings-avatar-title">Avatar</h3>
      <p className="hint" data-testid="avatar-current">
        {describe(avatar)}
      </p>
      <div className="avatar-settings-actions" aria-busy={busy !== null}>
        <label className={`header-button${busy !== null ? ' is-busy' : ''}`}>
          {busy ?? 'Choose a VRM file…'}
          <input
            ref={input}
            type="file"
            accept=".vrm"
            className="visually-hidden"
            data-testid="avatar-file"
            disabled={busy !== null || api === null}
            onChange={onFile}
          />
        </label>
        <button
          type="button"
          className="header-button"
          data-testid="avatar-builtin"
          disabled={builtin || busy !== null || api === null}
          onClick={() => void run('Switching…', () => (api === null ? Promise.resolve(null) : api.avatar.useBuiltin()))}
        >
          Use the built-in character
        </button>
      </div>
      <p className="hint">A VRM model (0.x or 1.0): it plays the emotes, speaks and shows expressions like the built-in one.</p>
      {error !== null ? (
        <p className="notice notice-error" role="alert" data-testid="avatar-settings-error">
          {error}
        </p>
      ) : null}
    </section>
  )
}

function describe(avatar: Avatar | null): string {
  if (avatar === null) return 'Loading…'
  if (avatar.kind === 'builtin') return 'Wisp shows its built-in character.'
  const parts = [avatar.vrmVersion !== undefined ? `VRM ${avatar.vrmVersion === '0' ? '0.x' : avatar.vrmVersion}` : 'VRM']
  if (avatar.size !== undefined) parts.push(sizeText(avatar.size))
  return `Wisp shows ${avatar.name ?? 'your VRM character'} (${parts.join(', ')}).`
}

function sizeText(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
