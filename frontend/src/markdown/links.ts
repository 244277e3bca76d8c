// What a click on a link in a reply does. In a browser tab the link opens
// in a new tab by itself (render.tsx gives it target="_blank" and
// rel="noopener noreferrer"). The desktop window (WebKitGTK under Wails)
// opens no new windows, so there the click hands the URL to the system
// browser through the desktop binding, which checks it again. Either way a
// target that is not http, https or mailto is never followed, except a
// citation of a message (citation.ts), which opens that message in the app.

import { parseCitation, type Citation } from './citation'
import { safeUrl } from './safeUrl'

/** The part of a click the handler reads and may cancel. */
export interface LinkClick {
  /** The href of the link clicked (the closest <a>), or null when the click was not on a link. */
  href: string | null
  preventDefault(): void
}

/** Opens the message a citation names, in the app (WispPage.openMessage). */
export type OpenCitation = (citation: Citation) => void

/** Opens a URL outside the page (the desktop's system browser); absent in a browser tab. */
export type OpenOutside = (url: string) => Promise<void>

/**
 * Handles a click inside rendered markdown: a citation opens its message in
 * the app (never the browser), unsafe targets are refused, and in the desktop
 * window safe ones open in the system browser. Returns the URL handed over,
 * else null.
 */
export function handleLinkClick(
  click: LinkClick,
  openOutside: OpenOutside | undefined,
  openCitation?: OpenCitation,
): string | null {
  if (click.href === null) return null
  const citation = parseCitation(click.href)
  if (citation !== null) {
    click.preventDefault()
    openCitation?.(citation)
    return null
  }
  const url = safeUrl(click.href)
  if (url === null) {
    click.preventDefault()
    return null
  }
  if (openOutside === undefined) return null
  click.preventDefault()
  openOutside(url).catch((err: unknown) => console.warn('wisp: cannot open the link', url, err))
  return url
}
