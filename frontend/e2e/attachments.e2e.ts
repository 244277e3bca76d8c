// End to end attachments: the real server binary answering with the fake LLM,
// the built UI, headless Chromium. An image (a PNG drawn on a canvas in the
// page) and a PDF (one page of known text, written by hand here) are dropped on
// the chat, uploaded, and sent with a question; the user's bubble shows the
// image's thumbnail and the PDF's chip, the fake model says what it saw, and
// after a reload they are still there. The conversation is exported as a zip
// (the JSON beside the files) and imported into a fresh server, where the
// attachments show again. Needs `npm run build`, the server binary (WISP_BIN)
// and the fake LLM (WISP_FAKELLM_BIN).

import { createHash } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Download, Page } from 'playwright-core'
import { UI_TIMEOUT, artifact, inkShare, withBrowser } from './browser'
import { fakeLLMBinary, fakeModelEnv, startFakeLLM, type RunningFakeLLM } from './fakellm'
import { serverPerTest } from './server'

const STEP_TIMEOUT = 20_000
const USER = '[data-testid="message"][data-role="user"]'
const ASSISTANT = '[data-testid="message"][data-role="assistant"]'
const PDF_TEXT = 'Wisp attachment report: the kettle is blue'

/**
 * A one-page PDF whose page shows text (Helvetica, no compression), with a
 * correct cross-reference table: small enough to read, real enough for a PDF library.
 */
function tinyPdf(text: string): Buffer {
  const escaped = text.replace(/[\\()]/g, (c) => `\\${c}`)
  const content = `BT /F1 18 Tf 72 720 Td (${escaped}) Tj ET\n`
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n${content}endstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ]
  let out = '%PDF-1.4\n'
  const offsets: number[] = []
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'))
    out += `${i + 1} 0 obj\n${body}\nendobj\n`
  })
  const xref = Buffer.byteLength(out, 'latin1')
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  return Buffer.from(out, 'latin1')
}

/** A 64×48 PNG drawn on a canvas by the page, as base64. */
async function canvasPng(page: Page): Promise<string> {
  return page.evaluate(async () => {
    const canvas = document.createElement('canvas')
    canvas.width = 64
    canvas.height = 48
    const ctx = canvas.getContext('2d')!
    ctx.fillStyle = '#d33'
    ctx.fillRect(0, 0, 64, 48)
    ctx.fillStyle = '#fff'
    ctx.fillRect(16, 12, 32, 24)
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'))
    if (blob === null) throw new Error('the canvas made no PNG')
    const bytes = new Uint8Array(await blob.arrayBuffer())
    let bin = ''
    for (const b of bytes) bin += String.fromCharCode(b)
    return btoa(bin)
  })
}

interface DroppedFile {
  name: string
  type: string
  base64: string
}

/** Drags files over the chat (the drop target shows) and drops them, as a file manager would. */
async function dropFiles(page: Page, files: DroppedFile[]): Promise<void> {
  const transfer = await page.evaluateHandle((list) => {
    const dt = new DataTransfer()
    for (const f of list) {
      const bin = atob(f.base64)
      const bytes = new Uint8Array(bin.length)
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i)
      dt.items.add(new File([bytes], f.name, { type: f.type }))
    }
    return dt
  }, files)
  await page.dispatchEvent('.chat-view', 'dragenter', { dataTransfer: transfer })
  await page.locator('[data-testid="drop-target"]').waitFor({ timeout: STEP_TIMEOUT })
  await page.dispatchEvent('.chat-view', 'dragover', { dataTransfer: transfer })
  await page.dispatchEvent('.chat-view', 'drop', { dataTransfer: transfer })
  await page.locator('[data-testid="drop-target"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
}

async function waitForComposer(page: Page): Promise<void> {
  await page.waitForSelector('[data-testid="composer"]:not([disabled])', { timeout: UI_TIMEOUT })
}

/** Waits until the last user bubble shows both files and its thumbnail has loaded; answers their ids. */
async function waitForBubbleFiles(page: Page): Promise<string[]> {
  await page.waitForFunction(
    (selector) => {
      const bubbles = document.querySelectorAll(selector)
      const last = bubbles[bubbles.length - 1]
      const img = last?.querySelector<HTMLImageElement>('[data-testid="attachment-thumb"]')
      return last?.querySelectorAll('[data-attachment-id]').length === 2 && img != null && img.complete && img.naturalWidth > 0
    },
    USER,
    { timeout: STEP_TIMEOUT },
  )
  return page.locator(`${USER} >> nth=-1`).locator('[data-attachment-id]').evaluateAll((els) => els.map((e) => e.getAttribute('data-attachment-id') ?? ''))
}

async function lastBubbleFiles(page: Page): Promise<{ kind: string | null; text: string }[]> {
  return page
    .locator(`${USER} >> nth=-1`)
    .locator('[data-attachment-id]')
    .evaluateAll((els) => els.map((e) => ({ kind: e.getAttribute('data-kind'), text: e.textContent ?? '' })))
}

describe('attachments', () => {
  const start = serverPerTest()
  let llm: RunningFakeLLM | null = null

  beforeAll(() => {
    if (!existsSync(fakeLLMBinary())) throw new Error(`fake LLM not found: ${fakeLLMBinary()} (set WISP_FAKELLM_BIN)`)
  })

  afterEach(async () => {
    await llm?.stop()
    llm = null
  })

  it('drops an image and a PDF, sends them, sees them after a reload, and brings them through a zip export and import', async () => {
    llm = await startFakeLLM({ delay: '1ms' })
    const first = await start({ env: fakeModelEnv(llm.url) })
    const pdf = tinyPdf(PDF_TEXT)
    let zip: { name: string; bytes: Buffer } | null = null
    let pngSha = ''
    await withBrowser(async (page) => {
      await page.goto(first.openURL)
      await waitForComposer(page)
      const png = await canvasPng(page)
      pngSha = createHash('sha256').update(Buffer.from(png, 'base64')).digest('hex')

      // Text dragged over the chat is no drop of files.
      const words = await page.evaluateHandle(() => {
        const dt = new DataTransfer()
        dt.setData('text/plain', 'just words')
        return dt
      })
      await page.dispatchEvent('.chat-view', 'dragenter', { dataTransfer: words })
      expect(await page.locator('[data-testid="drop-target"]').count()).toBe(0)

      await dropFiles(page, [
        { name: 'red square.png', type: 'image/png', base64: png },
        { name: 'report.pdf', type: 'application/pdf', base64: pdf.toString('base64') },
      ])
      const chips = page.locator('[data-attachment-chip]')
      await page.waitForFunction(() => document.querySelectorAll('[data-attachment-chip]').length === 2, undefined, { timeout: STEP_TIMEOUT })
      // Uploaded (the chips stop uploading), unless the server refused them: then its message fails the test.
      await page.waitForFunction(
        () => [...document.querySelectorAll('[data-attachment-chip]')].every((c) => c.getAttribute('data-uploading') === 'false'),
        undefined,
        { timeout: STEP_TIMEOUT },
      )
      const refused = await page.locator('[data-testid="attachment-error"]').allTextContents()
      expect(refused, 'the server refused an upload').toEqual([])
      expect(await chips.evaluateAll((els) => els.map((e) => [e.getAttribute('data-kind'), e.getAttribute('data-status')]))).toEqual([
        ['image', 'done'],
        ['pdf', 'done'],
      ])
      const composerShot = await page.locator('.composer').screenshot({ path: artifact('attachments-composer.png') })
      expect(await inkShare(page, composerShot), 'share of the composer screenshot that is text or borders').toBeGreaterThan(0.01)

      await page.fill('[data-testid="composer"]', 'What is in these?')
      await page.click('[data-testid="send"]')
      await page.waitForFunction(() => document.querySelectorAll('[data-attachment-chip]').length === 0, undefined, { timeout: STEP_TIMEOUT })
      const ids = await waitForBubbleFiles(page)
      expect(ids).toHaveLength(2)
      const files = await lastBubbleFiles(page)
      expect(files.map((f) => f.kind)).toEqual(['image', 'pdf'])
      expect(files[1]!.text).toContain('report.pdf')

      // The fake model saw the image.
      await page.waitForFunction(
        (selector) => document.querySelector(selector)?.getAttribute('data-status') === 'done',
        ASSISTANT,
        { timeout: UI_TIMEOUT },
      )
      const reply = (await page.locator(`${ASSISTANT} [data-testid="message-text"]`).textContent()) ?? ''
      expect(reply).toMatch(/^I see 1 image: 64×48 image\/png\./)
      const sentShot = await page.locator('.chat-view').screenshot({ path: artifact('attachments-sent.png') })
      expect(await inkShare(page, sentShot), 'share of the chat screenshot that is text or borders').toBeGreaterThan(0.005)

      // The full image opens over the page.
      await page.locator(`${USER} [data-testid="attachment-thumb"]`).click()
      await page.waitForFunction(
        () => {
          const img = document.querySelector<HTMLImageElement>('[data-testid="attachment-full"]')
          return img != null && img.complete && img.naturalWidth === 64
        },
        undefined,
        { timeout: STEP_TIMEOUT },
      )
      await page.keyboard.press('Escape')
      await page.locator('[data-testid="attachment-lightbox"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })

      // Read again from the server: still there.
      await page.reload()
      await waitForComposer(page)
      expect(await waitForBubbleFiles(page)).toEqual(ids)
      const reloadShot = await page.locator('.chat-view').screenshot({ path: artifact('attachments-reloaded.png') })
      expect(await inkShare(page, reloadShot), 'share of the reloaded chat screenshot that is text or borders').toBeGreaterThan(0.005)

      // Export as a zip: the JSON beside the files.
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: STEP_TIMEOUT }) as Promise<Download>,
        page.click('[data-testid="export-conversation-zip"]'),
      ])
      zip = { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) }
    })
    expect(await first.stop(), first.output()).toBe(0)

    expect(zip).not.toBeNull()
    const archive = zip!
    expect(archive.name).toMatch(/\.zip$/)
    expect(archive.bytes.subarray(0, 4).toString('latin1')).toBe('PK\u0003\u0004')
    // (Entry names are stored as they are in a zip's headers.)
    expect(archive.bytes.includes(Buffer.from('conversations.json'))).toBe(true)
    expect(archive.bytes.includes(Buffer.from(`attachments/${pngSha}`))).toBe(true)

    // A fresh Wisp takes the zip in: the conversation shows its files again.
    const second = await start({ env: fakeModelEnv(llm.url) })
    await withBrowser(async (page) => {
      await page.goto(second.openURL)
      await waitForComposer(page)
      await page.click('[data-testid="settings-toggle"]')
      await page.locator('[data-testid="settings-section-data"]').waitFor({ timeout: UI_TIMEOUT })
      await page.setInputFiles('[data-testid="import-file"]', { name: archive.name, mimeType: 'application/zip', buffer: archive.bytes })
      const answer = page.locator('[data-testid="import-result"], [data-testid="import-error"]')
      await answer.waitFor({ timeout: STEP_TIMEOUT })
      expect(await answer.textContent()).toBe('Imported 1 conversation.')
      await page.click('[data-testid="settings-close"]')
      await page.locator('[data-testid="settings"]').waitFor({ state: 'detached', timeout: STEP_TIMEOUT })
      await page.locator('[data-testid="conversation-title"]').first().click()
      await waitForBubbleFiles(page)
      const files = await lastBubbleFiles(page)
      expect(files.map((f) => f.kind)).toEqual(['image', 'pdf'])
      expect(files[1]!.text).toContain('report.pdf')
      const importedShot = await page.locator('.chat-view').screenshot({ path: artifact('attachments-imported.png') })
      expect(await inkShare(page, importedShot), 'share of the imported chat screenshot that is text or borders').toBeGreaterThan(0.005)
    })
    expect(await second.stop(), second.output()).toBe(0)
  })
})
