// Paths as the user reads them on a card: their home folder as ~. The page does
// not know the user's home, so it is read off the path: /home/<name>/… and
// /root/…; the full path stays in the card's title for anyone who hovers it.

const HOME = /^(\/home\/[^/]+|\/root)(?=\/|$)/

/** path with its home folder as ~ ("/home/ada/project" → "~/project"). */
export function tildePath(path: string): string {
  const m = HOME.exec(path)
  if (m === null) return path
  return `~${path.slice(m[0].length)}`
}

/** path inside root, as the root's own name says it ("/p/src/a.go" in "/p" → "src/a.go"). */
export function relativeTo(path: string, root: string): string {
  const base = root.endsWith('/') ? root : `${root}/`
  return path.startsWith(base) ? path.slice(base.length) : path
}
