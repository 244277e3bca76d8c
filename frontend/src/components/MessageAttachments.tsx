// A user message's files above its text: images as thumbnails (the server's,
// or the full bytes when it has none) that open the full image, and other
// files as chips (name, size, kind, pages) that save the file.

import './attachments.css'
import { useState } from 'react'
import type { Attachment } from '../api'
import { formatSize } from '../state/attachmentDraft'
import { desktopAttachmentSave, saveAttachment } from '../state/attachmentSave'
import { errorText } from '../state/archive'
import { useApi } from '../state/wispContext'
import { AttachmentIcon } from './AttachmentIcon'
import { ImageLightbox } from './ImageLightbox'
import { useAttachmentUrl } from './useAttachmentUrl'

export function MessageAttachments({ attachments }: { attachments: readonly Attachment[] }) {
  const [open, setOpen] = useState<Attachment | null>(null)
  return (
    <div className="message-attachments" data-testid="message-attachments">
      {attachments.map((a) =>
        a.kind === 'image' ? <ImageThumb key={a.id} attachment={a} onOpen={() => setOpen(a)} /> : <FileChip key={a.id} attachment={a} />,
      )}
      {open !== null ? <ImageLightbox attachment={open} onClose={() => setOpen(null)} /> : null}
    </div>
  )
}

function ImageThumb({ attachment: a, onOpen }: { attachment: Attachment; onOpen(): void }) {
  const { url, failed } = useAttachmentUrl(a.id, 'thumbnail')
  const size = a.width !== undefined && a.height !== undefined ? `${a.width}×${a.height}, ` : ''
  return (
    <button
      type="button"
      className="attachment-thumb"
      data-attachment-id={a.id}
      data-kind="image"
      title={`${a.name} (${size}${formatSize(a.size)}): open`}
      aria-label={`Open the image ${a.name}`}
      onClick={onOpen}
    >
      {url !== null ? (
        <img src={url} alt={a.name} data-testid="attachment-thumb" />
      ) : (
        <span className="attachment-thumb-placeholder" data-failed={failed || undefined}>
          <AttachmentIcon kind="image" />
        </span>
      )}
    </button>
  )
}

function FileChip({ attachment: a }: { attachment: Attachment }) {
  const api = useApi()
  const [status, setStatus] = useState<{ ok: boolean; text: string } | null>(null)
  const details = [formatSize(a.size), a.pages !== undefined ? `${a.pages} ${a.pages === 1 ? 'page' : 'pages'}` : null].filter(Boolean).join(' · ')
  const save = async () => {
    if (api === null) return
    setStatus(null)
    try {
      const done = await saveAttachment(a, { desktopSave: desktopAttachmentSave(), blob: (id) => api.attachmentBlob(id) })
      if (done.kind === 'saved') setStatus({ ok: true, text: `Saved to ${done.path}` })
    } catch (err) {
      setStatus({ ok: false, text: `Could not save: ${errorText(err)}` })
    }
  }
  return (
    <span className="attachment-file">
      <button
        type="button"
        className="attachment-chip"
        data-attachment-id={a.id}
        data-kind={a.kind}
        title={`${a.name}: save`}
        onClick={() => void save()}
      >
        <AttachmentIcon kind={a.kind} />
        <span className="attachment-name">{a.name}</span>
        <span className="attachment-size muted">{details}</span>
      </button>
      {status !== null ? (
        <span className={`attachment-status ${status.ok ? 'tone-ok' : 'tone-error'}`} role={status.ok ? 'status' : 'alert'}>
          {status.text}
        </span>
      ) : null}
    </span>
  )
}
