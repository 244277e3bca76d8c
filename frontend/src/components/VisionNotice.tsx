// One line above the composer when an image is attached and the model cannot
// see images (GET /api/provider says vision "no"): the images would not reach it.

import { useEffect } from 'react'
import type { ProviderInfo } from '../api'
import type { DraftChip } from '../state/attachmentDraft'
import { useStore } from '../state/store'
import { useWisp } from '../state/wispContext'

/** The notice for these chips and this provider, or null. */
export function visionNotice(chips: readonly DraftChip[], provider: ProviderInfo | null): string | null {
  if (provider?.vision !== 'no' || !chips.some((c) => c.kind === 'image')) return null
  return `${provider.model || 'The model'} cannot see images: they will not be sent`
}

export function VisionNotice({ chips }: { chips: readonly DraftChip[] }) {
  const { provider } = useWisp()
  const loaded = useStore(provider)
  const hasImage = chips.some((c) => c.kind === 'image')
  const unknown = loaded.value === null && !loaded.loading && loaded.error === null
  useEffect(() => {
    if (hasImage && unknown) void provider.load()
  }, [hasImage, unknown, provider])
  const text = visionNotice(chips, loaded.value)
  if (text === null) return null
  return (
    <p className="composer-note vision-notice" role="status" data-testid="vision-notice">
      {text}
    </p>
  )
}
