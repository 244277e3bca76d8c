import { afterEach, describe, expect, it } from 'vitest'
import { installFakeBrowser, type FakeBrowser } from '../state/fakeDom.test-util'
import {
  browserEnv,
  readTokenFragment,
  resolveConnection,
  tokenFragment,
  wsURLFromOrigin,
  type ConnectionEnv,
} from './connection'

function env(over: Partial<ConnectionEnv> = {}): ConnectionEnv {
  return {
    desktop: () => undefined,
    looksLikeDesktop: () => false,
    origin: 'http://127.0.0.1:4321',
    storage: { getItem: (k) => (k === 'wisp.token' ? 'stored' : null), setItem: () => undefined },
    hash: '',
    replaceHash: () => undefined,
    sleep: async () => undefined,
    ...over,
  }
}

/** A page opened at hash, with a storage holding stored (if any); records what the page changes. */
function page(hash: string, stored?: string) {
  const items = new Map<string, string>(stored === undefined ? [] : [['wisp.token', stored]])
  const replaced: string[] = []
  const e = env({
    hash,
    replaceHash: (h) => replaced.push(h),
    storage: { getItem: (k) => items.get(k) ?? null, setItem: (k, v) => items.set(k, v) },
  })
  return { env: e, items, replaced }
}

describe('resolveConnection', () => {
  it('uses the page origin and the stored token in a browser', async () => {
    await expect(resolveConnection(env())).resolves.toEqual({
      mode: 'browser',
      baseURL: 'http://127.0.0.1:4321',
      wsURL: 'ws://127.0.0.1:4321/ws',
      token: 'stored',
    })
    await expect(resolveConnection(env({ storage: undefined }))).resolves.toMatchObject({ token: '' })
  })

  it('asks the desktop binding when present', async () => {
    const desktop = {
      GetConnection: async () => ({ baseURL: 'http://127.0.0.1:5000', wsURL: 'ws://127.0.0.1:5000/ws', token: 't' }),
    }
    await expect(resolveConnection(env({ desktop: () => desktop }))).resolves.toEqual({
      mode: 'desktop',
      baseURL: 'http://127.0.0.1:5000',
      wsURL: 'ws://127.0.0.1:5000/ws',
      token: 't',
    })
  })

  it('takes the terminal token from the desktop binding when it has one', async () => {
    const answer = { baseURL: 'http://a:1', wsURL: 'ws://a:1/ws', token: 't', terminalToken: 'tt' }
    const withToken = { GetConnection: async () => answer }
    await expect(resolveConnection(env({ desktop: () => withToken }))).resolves.toMatchObject({ terminalToken: 'tt' })
    for (const odd of ['', 7, null]) {
      const desktop = { GetConnection: async () => ({ ...answer, terminalToken: odd }) }
      const resolved = await resolveConnection(env({ desktop: () => desktop }))
      expect(resolved).not.toHaveProperty('terminalToken')
    }
  })

  it('waits for a late Wails binding when served from wails://', async () => {
    let polls = 0
    const desktop = { GetConnection: async () => ({ baseURL: 'http://a:1', wsURL: 'ws://a:1/ws', token: '' }) }
    const resolved = await resolveConnection(
      env({ looksLikeDesktop: () => true, desktop: () => (++polls > 3 ? desktop : undefined) }),
    )
    expect(resolved.mode).toBe('desktop')
  })

  it('rejects a malformed desktop answer', async () => {
    const desktop = { GetConnection: async () => ({ baseURL: 1 }) }
    await expect(resolveConnection(env({ desktop: () => desktop }))).rejects.toThrow(/unexpected/)
  })
})

describe('the token in the URL that wisp serve prints', () => {
  it('is used, kept for later visits, and taken out of the address bar', async () => {
    const p = page('#token=abc-123_XYZ')
    await expect(resolveConnection(p.env)).resolves.toEqual({
      mode: 'browser',
      baseURL: 'http://127.0.0.1:4321',
      wsURL: 'ws://127.0.0.1:4321/ws',
      token: 'abc-123_XYZ',
    })
    expect(p.items.get('wisp.token')).toBe('abc-123_XYZ')
    expect(p.replaced).toEqual([''])
  })

  it('replaces a token stored earlier (the server made a new one)', async () => {
    const p = page('#token=new', 'old')
    await expect(resolveConnection(p.env)).resolves.toMatchObject({ token: 'new' })
    expect(p.items.get('wisp.token')).toBe('new')
  })

  it('leaves the route it carries in the address bar', async () => {
    const p = page(tokenFragment('t', '#/c/conv 1'))
    await expect(resolveConnection(p.env)).resolves.toMatchObject({ token: 't' })
    expect(p.replaced).toEqual(['#/c/conv 1'])
  })

  it('is removed even when empty, and then the stored token is used', async () => {
    const p = page('#token=', 'stored')
    await expect(resolveConnection(p.env)).resolves.toMatchObject({ token: 'stored' })
    expect(p.replaced).toEqual([''])
    expect(p.items.get('wisp.token')).toBe('stored')
  })

  it('leaves other fragments alone', async () => {
    for (const hash of ['', '#/', '#/c/abc', '#/c/x&token=y']) {
      const p = page(hash, 'stored')
      await expect(resolveConnection(p.env)).resolves.toMatchObject({ token: 'stored' })
      expect(p.replaced, hash).toEqual([])
    }
  })

  it('still serves the page when storage refuses it', async () => {
    const e = env({
      hash: '#token=t',
      storage: {
        getItem: () => null,
        setItem: () => {
          throw new Error('QuotaExceededError')
        },
      },
    })
    await expect(resolveConnection(e)).resolves.toMatchObject({ token: 't' })
  })

  it('is taken out but not used by the desktop window, which has its own', async () => {
    const p = page('#token=from-url')
    const desktop = { GetConnection: async () => ({ baseURL: 'http://a:1', wsURL: 'ws://a:1/ws', token: 'd' }) }
    await expect(resolveConnection({ ...p.env, desktop: () => desktop })).resolves.toMatchObject({ mode: 'desktop', token: 'd' })
    expect(p.replaced).toEqual([''])
    expect(p.items.has('wisp.token')).toBe(false)
  })

  it('round-trips any token and route through the fragment', () => {
    for (const token of ['abc', 'a b+c&d=e#f%', 'ünï']) {
      expect(readTokenFragment(tokenFragment(token))).toEqual({ token, route: '' })
      expect(readTokenFragment(tokenFragment(token, '#/c/a&b'))).toEqual({ token, route: '#/c/a&b' })
    }
    expect(readTokenFragment('#token=t&route=elsewhere')).toEqual({ token: 't', route: '' })
    expect(readTokenFragment('#/c/t')).toBeNull()
  })
})

describe('browserEnv on a page opened at the printed URL', () => {
  let browser: FakeBrowser | null = null
  afterEach(() => {
    browser?.uninstall()
    browser = null
  })

  it('stores the token in localStorage and leaves the address bar without it', async () => {
    browser = installFakeBrowser('http://127.0.0.1:2138/#token=s3cret-token')
    const conn = await resolveConnection(browserEnv())
    expect(conn).toEqual({
      mode: 'browser',
      baseURL: 'http://127.0.0.1:2138',
      wsURL: 'ws://127.0.0.1:2138/ws',
      token: 's3cret-token',
    })
    expect(browser.location.href).toBe('http://127.0.0.1:2138/')
    expect(browser.storage.getItem('wisp.token')).toBe('s3cret-token')
    // A reload (or a second look-up) finds it in storage.
    await expect(resolveConnection(browserEnv())).resolves.toMatchObject({ token: 's3cret-token' })
  })

  it('keeps the route a restart carried along', async () => {
    browser = installFakeBrowser(`http://127.0.0.1:3000/${tokenFragment('t', '#/c/abc')}`)
    await expect(resolveConnection(browserEnv())).resolves.toMatchObject({ token: 't' })
    expect(browser.location.href).toBe('http://127.0.0.1:3000/#/c/abc')
  })
})

describe('wsURLFromOrigin', () => {
  it('maps http to ws and https to wss', () => {
    expect(wsURLFromOrigin('http://localhost:8080')).toBe('ws://localhost:8080/ws')
    expect(wsURLFromOrigin('https://[::1]:8443')).toBe('wss://[::1]:8443/ws')
  })
})
