// What the browser benchmarks (bench/*.uibench.ts) share: the long-task observer,
// the main thread's task clock, medians and percentiles, and the line that says what
// was measured with. Not a test.

import { execFileSync } from 'node:child_process'
import { mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { wispBinary } from '../e2e/server'

/** Runs before any page script: records every long task (50 ms or more) in window.__long. */
export const OBSERVE = `
  window.__long = []
  new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push({ start: e.startTime, d: e.duration }) })
    .observe({ type: 'longtask', buffered: true })
`

/** A reader of the page's main-thread task time, in ms (one CDP session for the page). */
export async function taskClock(page: Page): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Performance.enable')
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics')
    return 1000 * (metrics.find((m) => m.name === 'TaskDuration')?.value ?? 0)
  }
}

export async function longTasks(page: Page, from: number, to: number): Promise<{ longestMs: number; longTasks: number }> {
  const all = await page.evaluate(() => (window as unknown as { __long: { start: number; d: number }[] }).__long)
  const inside = all.filter((t) => t.start + t.d >= from && t.start <= to)
  return { longestMs: Math.max(0, ...inside.map((t) => t.d)), longTasks: inside.length }
}

/** The avatar stage once its canvas has drawn a frame (avatarStage.ts labels each frame). */
export const AVATAR_DRAWN = '[data-testid="avatar-stage"][data-stage="ready"] canvas[data-frames]'

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2
}

/** The p-th percentile (0..100) of xs, nearest rank. */
export function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))] ?? 0
}

/** "Measured <date> UTC · commit … · wisp … · Chromium …, headless, software rendering". */
export function measuredWith(): string {
  const git = (args: string[]) => {
    try {
      return execFileSync('git', args, { encoding: 'utf8' }).trim()
    } catch {
      return ''
    }
  }
  // UIBENCH_COMMIT names the commit WISP_BIN was built from when it is not this checkout's.
  const commit = process.env.UIBENCH_COMMIT || git(['rev-parse', '--short', 'HEAD']) || 'unknown commit'
  const dirty = process.env.UIBENCH_COMMIT || !git(['status', '--porcelain', '--untracked-files=no', '--', 'frontend/src', '*.go']) ? '' : '-dirty'
  const size = (statSync(wispBinary()).size / (1 << 20)).toFixed(1)
  const chromium = (() => {
    try {
      return execFileSync(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).trim()
    } catch {
      return 'Chromium'
    }
  })()
  const date = new Date().toISOString().slice(0, 16).replace('T', ' ')
  // UIBENCH_NOTE says more about the build measured (e.g. what it was built from).
  const note = process.env.UIBENCH_NOTE ? ` (${process.env.UIBENCH_NOTE})` : ''
  return `Measured ${date} UTC · commit ${commit}${dirty}${note} · wisp \`build/bin/wisp-serve\` (${size} MiB) with the UI it embeds · ${chromium}, headless, software rendering`
}

/**
 * With UIBENCH_PROFILE=<dir>, a Chromium trace of the page from send to the end
 * (devtools.timeline), written as <dir>/<name>-<n>.json (open it in DevTools' Performance
 * tab or ui.perfetto.dev), and a sampling CPU profile of its JavaScript beside it
 * (.cpuprofile). Otherwise nothing.
 */
export async function startProfile(page: Page): Promise<(name: string) => Promise<void>> {
  const dir = process.env.UIBENCH_PROFILE
  if (dir === undefined || dir === '') return async () => {}
  const browser = page.context().browser()!
  const categories = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8.execute', 'blink', 'loading']
  await browser.startTracing(page, { categories })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 })
  await cdp.send('Profiler.start')
  return async (name) => {
    const { profile } = await cdp.send('Profiler.stop')
    const trace = await browser.stopTracing()
    mkdirSync(dir, { recursive: true })
    const file = join(dir, `${name.replace(/\W+/g, '-')}-${profileCount++}`)
    writeFileSync(`${file}.json`, trace)
    writeFileSync(`${file}.cpuprofile`, JSON.stringify(profile))
  }
}
let profileCount = 0
