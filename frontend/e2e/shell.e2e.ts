// End to end: the real server binary, the built UI, headless Chromium.
// Needs `npm run build` and the server binary (WISP_BIN, default ../build/bin/wisp-serve).

import { rmSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ARTIFACTS, UI_TIMEOUT, expectTestId, withBrowser } from './browser'
import { freePort, freshStateDir, serverPerTest, type RunningServer } from './server'

async function publish(server: RunningServer, body: unknown, token = server.token): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json' }
  if (token !== '') headers.Authorization = `Bearer ${token}`
  const res = await fetch(`${server.url}/api/agent/event`, { method: 'POST', headers, body: JSON.stringify(body) })
  expect(res.status, await res.clone().text()).toBe(200)
  const json = (await res.json()) as { ok?: unknown; eventId?: unknown }
  expect(json.ok).toBe(true)
  expect(json.eventId).toMatch(/^evt-\d+$/)
}

describe('app shell', () => {
  const start = serverPerTest()

  it('connects, shows status and live activity, and the server exits 0 on SIGTERM', async () => {
    const s = await start()
    // The server made a token and printed the URL to open with it.
    expect(s.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(s.openURL).toBe(`${s.url}/#token=${s.token}`)
    expect((await fetch(`${s.url}/api/status`)).status).toBe(401)
    await withBrowser(async (page) => {
      await page.goto(s.openURL)
      expect(await page.title()).toBe('Wisp')
      await expectTestId(page, 'conn-state', 'connected')
      await expectTestId(page, 'agent-state', 'running')
      // The page keeps the token and takes it out of the address bar.
      expect(page.url()).toBe(`${s.url}/`)
      expect(await page.evaluate(() => localStorage.getItem('wisp.token'))).toBe(s.token)
      expect(await page.locator('[data-testid="token-form"]').count()).toBe(0)
      // The page reports once it has painted the app with its data.
      await s.waitForOutput(/msg="ui ready" api=true ws=true painted=true/, UI_TIMEOUT)

      await publish(s, { stream: 'system', payload: { message: 'hello from e2e' } })
      const item = page.locator('[data-testid="activity-item"]', { hasText: 'hello from e2e' })
      await item.first().waitFor({ timeout: UI_TIMEOUT })
      expect(await item.first().textContent()).toContain('system')

      await page.screenshot({ path: resolve(ARTIFACTS, 'shell.png') })
    })
    const code = await s.stop()
    expect(code, s.output()).toBe(0)
  })

  it('asks for the API token on 401 and connects once it is entered', async () => {
    const s = await start({ env: { WISP_API_TOKEN: 'secret-e2e' } })
    await withBrowser(async (page) => {
      await page.goto(s.url)
      const form = page.locator('[data-testid="token-form"]')
      await form.waitFor({ timeout: UI_TIMEOUT })
      expect(await page.locator('[data-testid="conn-state"]').textContent()).not.toBe('connected')
      await page.screenshot({ path: resolve(ARTIFACTS, 'token-form.png') })

      await page.fill('[data-testid="token-input"]', 'wrong-token')
      await page.click('[data-testid="token-submit"]')
      await page.getByText('The server refused that token.').waitFor({ timeout: UI_TIMEOUT })

      await page.fill('[data-testid="token-input"]', 'secret-e2e')
      await page.click('[data-testid="token-submit"]')
      await expectTestId(page, 'conn-state', 'connected')
      await expectTestId(page, 'agent-state', 'running')
      await form.waitFor({ state: 'detached', timeout: UI_TIMEOUT })
      expect(await page.evaluate(() => localStorage.getItem('wisp.token'))).toBe('secret-e2e')

      await publish(s, { stream: 'system', payload: { message: 'authed event' } }, 'secret-e2e')
      await page
        .locator('[data-testid="activity-item"]', { hasText: 'authed event' })
        .first()
        .waitFor({ timeout: UI_TIMEOUT })
    })
    expect(await s.stop(), s.output()).toBe(0)
  })

  it('reconnects after a server restart without missing or repeating events', async () => {
    const port = await freePort()
    const stateDir = freshStateDir()
    try {
      let s = await start({ port, stateDir })
      await withBrowser(async (page) => {
        await page.goto(s.openURL)
        await expectTestId(page, 'conn-state', 'connected')
        await publish(s, { stream: 'system', payload: { message: 'before restart' } })
        await page.locator('[data-testid="activity-item"]', { hasText: 'before restart' }).waitFor({ timeout: UI_TIMEOUT })

        expect(await s.stop(), s.output()).toBe(0)
        await expectTestId(page, 'conn-state', 'reconnecting')
        const token = s.token
        s = await start({ port, stateDir })
        expect(s.token, 'the token kept in the state folder is reused').toBe(token)
        await publish(s, { stream: 'system', payload: { message: 'while away' } })
        await expectTestId(page, 'conn-state', 'connected')
        await publish(s, { stream: 'system', payload: { message: 'after restart' } })
        await page.locator('[data-testid="activity-item"]', { hasText: 'after restart' }).waitFor({ timeout: UI_TIMEOUT })

        const texts = await page.locator('[data-testid="activity-item"] code').allTextContents()
        expect(texts, s.output()).toEqual([
          '{"message":"after restart"}',
          '{"message":"while away"}',
          '{"message":"before restart"}',
        ])
      })
      expect(await s.stop(), s.output()).toBe(0)
    } finally {
      rmSync(stateDir, { recursive: true, force: true })
    }
  })

  it('takes the connection and token from the desktop binding when present', async () => {
    const s = await start({ env: { WISP_API_TOKEN: 'desk-token' } })
    await withBrowser(async (page) => {
      const conn = { baseURL: s.url, wsURL: `${s.url.replace(/^http/, 'ws')}/ws`, token: 'desk-token' }
      await page.addInitScript((c) => {
        Object.assign(window, { go: { desktop: { Desktop: { GetConnection: () => Promise.resolve(c) } } } })
      }, conn)
      await page.goto(s.url)
      await expectTestId(page, 'conn-state', 'connected')
      await expectTestId(page, 'agent-state', 'running')
      expect(await page.locator('[data-testid="token-form"]').count()).toBe(0)
      expect(await page.evaluate(() => localStorage.getItem('wisp.token'))).toBeNull()
      await s.waitForOutput(/msg="ui ready" api=true ws=true painted=true/, UI_TIMEOUT)
    })
    expect(await s.stop(), s.output()).toBe(0)
  })
})
