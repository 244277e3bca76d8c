import type { AttachmentKind } from '../api'

const ICONS: Record<AttachmentKind, string> = { image: '🖼', pdf: '📕', text: '📄', file: '📎' }
const LABELS: Record<AttachmentKind, string> = { image: 'Image', pdf: 'PDF', text: 'Text file', file: 'File' }

/** The kind of a file as a small icon (its name for assistive technology is the label). */
export function AttachmentIcon({ kind }: { kind: AttachmentKind }) {
  return (
    <span className="attachment-icon" data-kind={kind} role="img" aria-label={LABELS[kind]}>
      {ICONS[kind]}
    </span>
  )
}
