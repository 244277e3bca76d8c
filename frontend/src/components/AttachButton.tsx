// 📎: the desktop window's file dialog when it binds one (Desktop.PickFiles
// uploads the files itself and answers their attachments), else a hidden
// <input type=file multiple>.

import { useRef } from 'react'
import { decodeAttachment, type Attachment } from '../api/wire.gen'
import { errorText } from '../state/archive'
import { Icon } from './Icon'

interface Props {
  disabled: boolean
  onFiles(files: File[]): void
  onUploaded(attachments: Attachment[]): void
  onError(message: string): void
}

/** The desktop binding's answer as attachments (anything else is an error). */
export function pickedAttachments(v: unknown): Attachment[] {
  if (v === null || v === undefined) return [] // the dialog was cancelled
  if (!Array.isArray(v)) throw new Error('the file dialog answered something that is not a list of files')
  return v.map((x) => decodeAttachment(x))
}

export function desktopPicker(): (() => Promise<unknown>) | null {
  const pick = typeof window === 'undefined' ? undefined : window.go?.desktop?.Desktop?.PickFiles
  return typeof pick === 'function' ? () => pick() : null
}

export function AttachButton({ disabled, onFiles, onUploaded, onError }: Props) {
  const input = useRef<HTMLInputElement>(null)
  const click = () => {
    const pick = desktopPicker()
    if (pick === null) {
      input.current?.click()
      return
    }
    pick().then(
      (v) => {
        try {
          onUploaded(pickedAttachments(v))
        } catch (err) {
          onError(errorText(err))
        }
      },
      (err: unknown) => onError(`Could not attach: ${errorText(err)}`),
    )
  }
  return (
    <>
      <button
        type="button"
        className="icon-button attach-button"
        aria-label="Attach files"
        title="Attach files (or drop or paste them)"
        data-testid="attach"
        disabled={disabled}
        onClick={click}
      >
        <Icon name="paperclip" />
      </button>
      <input
        ref={input}
        type="file"
        multiple
        className="visually-hidden"
        tabIndex={-1}
        aria-hidden="true"
        data-testid="attach-input"
        onChange={(e) => {
          const files = [...(e.target.files ?? [])]
          e.target.value = '' // the same file again is a new choice
          if (files.length > 0) onFiles(files)
        }}
      />
    </>
  )
}
