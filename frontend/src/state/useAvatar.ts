// The character the page shows (GET /api/avatar, WispPage's avatar store; an
// avatar-changed frame puts the new one, frameTable.ts) for a component:
// loaded when the API client is known. A server without the route (an older
// Wisp) shows the built-in character.

import { useEffect } from 'react'
import { BUILTIN_AVATAR, type Avatar } from '../api'
import { useStore } from './store'
import { useApi, useWisp } from './wispContext'

export interface AvatarChoice {
  /** The character to show; null while the first answer is awaited. */
  avatar: Avatar | null
  /** Set after a failed load (the built-in character is shown meanwhile). */
  error: string | null
  reload(): void
  /** After a change this window made (the server's answer): shown at once, before the frame comes. */
  put(avatar: Avatar): void
}

export function useAvatar(): AvatarChoice {
  const store = useWisp().avatar
  const api = useApi()
  useEffect(() => {
    if (api !== null) void store.load()
  }, [store, api])
  const { value, error } = useStore(store)
  const avatar = value ?? (error !== null ? BUILTIN_AVATAR : null)
  return { avatar, error, reload: store.load, put: (a) => store.put(a) }
}
