// The composer's files (state/attachmentDraft.ts): name, size, a thumbnail of
// an image (its own bytes, no network) or an icon of its kind, ✕ to remove it
// (an upload on its way is aborted), and the server's message when it refused it.

import './attachments.css'
import type { DraftChip } from '../state/attachmentDraft'
import { formatSize } from '../state/attachmentDraft'
import { AttachmentIcon } from './AttachmentIcon'
import { Icon } from './Icon'
import { useAttachmentUrl } from './useAttachmentUrl'

interface Props {
  chips: readonly DraftChip[]
  onRemove(key: string): void
}

export function AttachmentChips({ chips, onRemove }: Props) {
  if (chips.length === 0) return null
  return (
    <ul className="draft-attachments" data-testid="draft-attachments" aria-label="Attached files">
      {chips.map((c) => (
        <Chip key={c.key} chip={c} onRemove={() => onRemove(c.key)} />
      ))}
    </ul>
  )
}

function Chip({ chip: c, onRemove }: { chip: DraftChip; onRemove(): void }) {
  const uploading = c.status === 'uploading'
  return (
    <li
      className={`attachment-chip draft-chip status-${c.status}`}
      data-attachment-chip=""
      data-status={c.status}
      data-uploading={uploading ? 'true' : 'false'}
      data-kind={c.kind}
      title={c.error === undefined ? c.name : `${c.name}: ${c.error}`}
      aria-busy={uploading}
    >
      <ChipPicture chip={c} />
      <span className="attachment-name">{c.name}</span>
      <span className="attachment-size muted">{uploading ? 'uploading…' : formatSize(c.size)}</span>
      {uploading ? <span className="spinner" aria-hidden="true" /> : null}
      {c.error !== undefined ? (
        <span className="attachment-error" role="alert" data-testid="attachment-error">
          {c.error}
        </span>
      ) : null}
      <button
        type="button"
        className="attachment-remove"
        aria-label={uploading ? `Cancel the upload of ${c.name}` : `Remove ${c.name}`}
        title={uploading ? 'Cancel the upload' : 'Remove'}
        data-testid="attachment-remove"
        onClick={onRemove}
      >
        <Icon name="x" />
      </button>
    </li>
  )
}

/** The local preview of an image; one the desktop picker uploaded shows the server's thumbnail. */
function ChipPicture({ chip: c }: { chip: DraftChip }) {
  const serverId = c.preview === undefined && c.kind === 'image' ? (c.attachment?.id ?? null) : null
  const { url } = useAttachmentUrl(serverId, 'thumbnail')
  const src = c.preview ?? url
  if (c.kind === 'image' && src !== null) return <img className="chip-thumb" src={src} alt="" data-testid="chip-thumb" />
  return <AttachmentIcon kind={c.kind} />
}
