// Citations in model output (docs/memory.md, RECALL): a Markdown link
// [label](target) whose target is exactly
// wisp://message/<conversationId>/<messageId> stands for a message of Wisp's
// own history (an autolink or an image with that target is not one). It renders as an in-app link (render.tsx,
// class md-citation) that opens that conversation at that message
// (WispPage.openMessage); no other wisp: URL is a link, nor a malformed one
// (they stay text, as any target safeUrl refuses). Pure; this package must not
// import components or state.

export interface Citation {
  conversationId: string
  messageId: string
}

/** An id as the server makes them (UUIDs, or short test ids): letters, digits, - and _. */
const ID = '[A-Za-z0-9_-]{1,128}'
const CITATION = new RegExp(`^wisp://message/(${ID})/(${ID})$`)

/** The message a citation's target names, or null when the target is not exactly a citation. */
export function parseCitation(href: string): Citation | null {
  const m = CITATION.exec(href)
  if (m === null) return null
  return { conversationId: m[1] as string, messageId: m[2] as string }
}

/** The target of a citation of messageId of conversationId. */
export function citationHref({ conversationId, messageId }: Citation): string {
  return `wisp://message/${conversationId}/${messageId}`
}
