import type { AttachmentKind } from '../api'
import { Icon, type IconName } from './Icon'

const ICONS: Record<AttachmentKind, IconName> = { image: 'image', pdf: 'filePages', text: 'fileText', file: 'file' }
const LABELS: Record<AttachmentKind, string> = { image: 'Image', pdf: 'PDF', text: 'Text file', file: 'File' }

/** The kind of a file as a small icon (its name for assistive technology is the label). */
export function AttachmentIcon({ kind }: { kind: AttachmentKind }) {
  return (
    <span className="attachment-icon" data-kind={kind} role="img" aria-label={LABELS[kind]}>
      <Icon name={ICONS[kind]} />
    </span>
  )
}
