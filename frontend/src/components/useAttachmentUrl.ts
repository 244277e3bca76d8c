// An attachment's bytes or thumbnail as an object URL while a component shows
// it: fetched with the API client's headers (cached by id, api/objectUrls.ts),
// released when the component goes or shows another.

import { useEffect, useState } from 'react'
import type { ApiClient, ObjectUrl } from '../api'
import { useApi } from '../state/wispContext'

export type AttachmentVariant = 'thumbnail' | 'full'

export interface AttachmentUrlState {
  url: string | null
  failed: boolean
}

/** Acquires the URL; a thumbnail the server cannot make falls back to the full bytes. */
export async function acquireAttachmentUrl(api: ApiClient, id: string, variant: AttachmentVariant): Promise<ObjectUrl> {
  if (variant === 'full') return api.attachmentBlob(id)
  try {
    return await api.attachmentThumbnail(id)
  } catch {
    return api.attachmentBlob(id)
  }
}

export function useAttachmentUrl(id: string | null, variant: AttachmentVariant): AttachmentUrlState {
  const api = useApi()
  const [state, setState] = useState<AttachmentUrlState & { id: string | null }>({ id: null, url: null, failed: false })
  useEffect(() => {
    if (api === null || id === null) return
    let held: ObjectUrl | null = null
    let live = true
    acquireAttachmentUrl(api, id, variant).then(
      (u) => {
        if (!live) return u.release()
        held = u
        setState({ id, url: u.url, failed: false })
      },
      () => {
        if (live) setState({ id, url: null, failed: true })
      },
    )
    return () => {
      live = false
      held?.release()
    }
  }, [api, id, variant])
  return state.id === id ? { url: state.url, failed: state.failed } : { url: null, failed: false }
}
