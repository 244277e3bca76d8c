// The open conversation lives in the URL hash (#/c/<id>) so a reload reopens it.

const PREFIX = '#/c/'

export function conversationFromHash(hash: string): string | null {
  if (!hash.startsWith(PREFIX)) return null
  const raw = hash.slice(PREFIX.length)
  if (raw === '') return null
  try {
    return decodeURIComponent(raw)
  } catch {
    return null
  }
}

export function hashForConversation(id: string | null): string {
  return id === null ? '#/' : `${PREFIX}${encodeURIComponent(id)}`
}
