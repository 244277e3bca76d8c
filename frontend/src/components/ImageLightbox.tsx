// An image attachment at full size over the page; Escape, the ✕ or a click
// outside the image closes it.

import { useEffect, useRef } from 'react'
import type { Attachment } from '../api'
import { Icon } from './Icon'
import { useAttachmentUrl } from './useAttachmentUrl'

export function ImageLightbox({ attachment: a, onClose }: { attachment: Attachment; onClose(): void }) {
  const { url, failed } = useAttachmentUrl(a.id, 'full')
  const close = useRef<HTMLButtonElement>(null)
  useEffect(() => {
    const before = document.activeElement as HTMLElement | null
    close.current?.focus()
    return () => before?.focus?.()
  }, [])
  return (
    <div
      className="lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={a.name}
      data-testid="attachment-lightbox"
      onClick={(e) => {
        if (e.target === e.currentTarget) onClose()
      }}
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return
        e.stopPropagation()
        onClose()
      }}
    >
      <figure className="lightbox-figure">
        {url !== null ? <img src={url} alt={a.name} data-testid="attachment-full" /> : <p className="muted">{failed ? 'The image could not be loaded.' : 'Loading…'}</p>}
        <figcaption>
          <span className="attachment-name">{a.name}</span>
          {url !== null ? (
            <a href={url} target="_blank" rel="noopener" className="link-button">
              Open in a new tab
            </a>
          ) : null}
          <button ref={close} type="button" className="icon-button" aria-label="Close" data-testid="attachment-lightbox-close" onClick={onClose}>
            <Icon name="x" />
          </button>
        </figcaption>
      </figure>
    </div>
  )
}
