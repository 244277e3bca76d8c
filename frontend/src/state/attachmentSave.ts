// Saving a message's file: the desktop window's own save when it binds one
// (WebKitGTK under Wails has no download manager: Desktop.SaveAttachment
// writes it into the downloads folder), else the browser's download of the
// bytes fetched with the API's headers (object URL + <a download>).

import type { Attachment, ObjectUrl } from '../api'

export type SaveOutcome = { kind: 'saved'; path: string } | { kind: 'downloaded' }

export interface SaveDeps {
  /** The window's binding, or null in a browser. */
  desktopSave: ((id: string) => Promise<unknown>) | null
  /** The bytes as a held object URL. */
  blob(id: string): Promise<ObjectUrl>
  /** Clicks a hidden <a download> (the page's by default). */
  click?(url: string, name: string): void
}

/** How long a download's URL stays held for the browser to read it. */
const HOLD_MS = 60_000

export function desktopAttachmentSave(): SaveDeps['desktopSave'] {
  const save = typeof window === 'undefined' ? undefined : window.go?.desktop?.Desktop?.SaveAttachment
  return typeof save === 'function' ? (id) => save(id) : null
}

export async function saveAttachment(a: Attachment, deps: SaveDeps): Promise<SaveOutcome> {
  if (deps.desktopSave !== null) {
    const path = await deps.desktopSave(a.id)
    if (typeof path !== 'string' || path === '') throw new Error('the file was not saved')
    return { kind: 'saved', path }
  }
  const held = await deps.blob(a.id)
  ;(deps.click ?? clickDownload)(held.url, a.name)
  setTimeout(held.release, HOLD_MS)
  return { kind: 'downloaded' }
}

function clickDownload(url: string, name: string): void {
  const link = document.createElement('a')
  link.href = url
  link.download = name
  link.rel = 'noopener'
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
}
