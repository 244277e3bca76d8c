// Replaces one marked section of BENCHMARKS.md, as the Go drivers' benchkit.ReplaceSection
// does: the text between <!-- bench:NAME:begin --> and <!-- bench:NAME:end --> becomes
// block; without markers, intro and the marked block are appended.

export function replaceSection(doc: string, name: string, intro: string, block: string): string {
  const begin = `<!-- bench:${name}:begin -->`
  const end = `<!-- bench:${name}:end -->`
  const section = `${begin}\n${block}\n${end}`
  const i = doc.indexOf(begin)
  const j = doc.indexOf(end)
  if (i >= 0 && j > i) return doc.slice(0, i) + section + doc.slice(j + end.length)
  if (i < 0 && j < 0) return `${doc.trimEnd()}\n\n${intro}${section}\n`
  throw new Error(`the ${name} markers of BENCHMARKS.md are unbalanced; fix them by hand`)
}
