// A long conversation for the browser benchmark (longchat.uibench.ts), as a
// Wisp JSON export (docs/export.md, version 1) to POST to /api/import: user
// questions and assistant answers of realistic lengths, with markdown (lists,
// headings, bold, inline code) and fenced code blocks. Deterministic: the same
// count gives the same file. Pure.

export interface LongChat {
  /** The export file's JSON. */
  file: string
  conversationId: string
  title: string
  firstMessageId: string
  /** Characters of message text in all. */
  chars: number
}

/** A small seeded PRNG (mulberry32), so every run builds the same conversation. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'the a of to and in is it that for on with as this be are by not or from at an can use you your value function ' +
  'request server client file list map state render cache queue thread memory error test config build branch message ' +
  'stream token parser layout index query table column row commit merge deploy review latency throughput buffer'
).split(' ')

export function longChat(count: number, id = `bench-long-${count}`): LongChat {
  const rnd = random(count)
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)] as T
  const between = (lo: number, hi: number) => lo + Math.floor(rnd() * (hi - lo + 1))
  const sentence = (): string => {
    const n = between(6, 18)
    const words: string[] = []
    for (let i = 0; i < n; i++) {
      const w = pick(WORDS)
      const r = rnd()
      words.push(r < 0.04 ? `**${w}**` : r < 0.08 ? `\`${w}()\`` : w)
    }
    const s = words.join(' ')
    return `${s[0]!.toUpperCase()}${s.slice(1)}.`
  }
  const paragraph = (lo: number, hi: number) => Array.from({ length: between(lo, hi) }, sentence).join(' ')
  const code = (): string => {
    const lines = Array.from({ length: between(4, 18) }, (_, i) => `${'  '.repeat(i % 3)}const ${pick(WORDS)}${i} = ${pick(WORDS)}(${between(0, 99)})`)
    return ['```' + pick(['ts', 'go', 'python', 'sh']), ...lines, '```'].join('\n')
  }
  const answer = (): string => {
    const parts: string[] = [paragraph(1, 4)]
    const blocks = between(0, 4)
    for (let i = 0; i < blocks; i++) {
      const r = rnd()
      if (r < 0.3) parts.push(code())
      else if (r < 0.55) parts.push(Array.from({ length: between(2, 6) }, () => `- ${sentence()}`).join('\n'))
      else if (r < 0.65) parts.push(`### ${sentence().slice(0, 40)}`)
      else parts.push(paragraph(1, 5))
    }
    return parts.join('\n\n')
  }
  const start = Date.UTC(2026, 0, 1)
  const messages: object[] = []
  let chars = 0
  for (let i = 0; i < count; i++) {
    const user = i % 2 === 0
    const text = user ? paragraph(1, 3) : answer()
    chars += text.length
    messages.push({
      id: `${id}-m${String(i).padStart(5, '0')}`,
      role: user ? 'user' : 'assistant',
      text,
      createdAt: new Date(start + i * 60_000).toISOString(),
    })
  }
  const title = `Long chat of ${count} messages`
  const createdAt = new Date(start).toISOString()
  const updatedAt = new Date(start + count * 60_000).toISOString()
  const file = JSON.stringify({
    format: 'wisp-export',
    version: 1,
    exportedAt: updatedAt,
    conversations: [{ id, title, createdAt, updatedAt, messages, displayMessages: [], runs: [] }],
  })
  return { file, conversationId: id, title, firstMessageId: `${id}-m00000`, chars }
}
