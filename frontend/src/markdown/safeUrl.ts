// Which link targets model output may use: absolute http(s) and mailto
// URLs only. Relative URLs would navigate the app itself (or wails://), and
// javascript:, data:, file: and friends are never allowed.

const ALLOWED = new Set(['http:', 'https:', 'mailto:'])

/** The normalised URL when it is safe to link to, else null. */
export function safeUrl(raw: string): string | null {
  const trimmed = raw.trim()
  if (trimmed === '') return null
  let url: URL
  try {
    url = new URL(trimmed) // no base: relative URLs throw
  } catch {
    return null
  }
  return ALLOWED.has(url.protocol) ? url.href : null
}
