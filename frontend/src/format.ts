// Small display helpers shared by components.

export function formatClock(ts: number): string {
  const d = new Date(ts)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`
}

/** 0 → "0s", 61_000 → "1m 1s", 3_723_000 → "1h 2m", 90_000_000 → "1d 1h". */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.floor(ms / 1000))
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3_600)
  const m = Math.floor((s % 3_600) / 60)
  if (d > 0) return `${d}d ${h}h`
  if (h > 0) return `${h}h ${m}m`
  if (m > 0) return `${m}m ${s % 60}s`
  return `${s}s`
}

/** One-line JSON, cut at max characters. */
export function compactJSON(value: unknown, max = 400): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** How far `at` is from `now`, in words: "in 5 min", "in 1 h 20 min", "3 min ago", "just now". */
export function formatRelative(at: number, now: number): string {
  const diff = at - now
  const future = diff > 0
  const s = Math.abs(diff) / 1000
  if (!future && s < 10) return 'just now'
  let span: string
  if (s < 60) span = `${Math.max(1, future ? Math.ceil(s) : Math.floor(s))} s`
  else if (s < 3_600) span = `${Math.round(s / 60)} min`
  else if (s < 86_400) {
    const h = Math.floor(s / 3_600)
    const m = Math.round((s % 3_600) / 60)
    span = m === 0 || m === 60 ? `${m === 60 ? h + 1 : h} h` : `${h} h ${m} min`
  } else {
    const d = Math.floor(s / 86_400)
    const h = Math.round((s % 86_400) / 3_600)
    span = d >= 7 || h === 0 ? `${d} d` : h === 24 ? `${d + 1} d` : `${d} d ${h} h`
  }
  return future ? `in ${span}` : `${span} ago`
}

/** The local time of `at`: "14:05" today, with the day ("Sat 21 Nov, 14:05") otherwise. */
export function formatLocalTime(at: number, now: number): string {
  const d = new Date(at)
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
  if (d.toDateString() === new Date(now).toDateString()) return time
  const day = d.toLocaleDateString([], { weekday: 'short', day: 'numeric', month: 'short' })
  return `${day}, ${time}`
}

let timestampFormat: Intl.DateTimeFormat | null = null

/**
 * A moment as the user's locale writes a date and time (what toLocaleString
 * gives), through one shared formatter: making a formatter loads locale data,
 * which the first time takes tens of milliseconds (warmup.ts does it while idle).
 */
export function formatTimestamp(ms: number): string {
  timestampFormat ??= new Intl.DateTimeFormat(undefined, {
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    second: '2-digit',
  })
  return Number.isFinite(ms) ? timestampFormat.format(ms) : ''
}

/** text cut to at most max characters, "…" marking the cut. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${sliceWhole(text, Math.max(0, max - 1))}…` : text
}

/** The first end UTF-16 units of text, one fewer when the last would be half of a surrogate pair. */
export function sliceWhole(text: string, end: number): string {
  const last = text.charCodeAt(end - 1)
  return text.slice(0, last >= 0xd800 && last <= 0xdbff ? end - 1 : end)
}
