import { describe, expect, it } from 'vitest'
import { resolveConnection, wsURLFromOrigin, type ConnectionEnv } from './connection'

function env(over: Partial<ConnectionEnv> = {}): ConnectionEnv {
  return {
    desktop: () => undefined,
    looksLikeDesktop: () => false,
    origin: 'http://127.0.0.1:4321',
    storage: { getItem: (k) => (k === 'wisp.token' ? 'stored' : null) },
    sleep: async () => undefined,
    ...over,
  }
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

describe('wsURLFromOrigin', () => {
  it('maps http to ws and https to wss', () => {
    expect(wsURLFromOrigin('http://localhost:8080')).toBe('ws://localhost:8080/ws')
    expect(wsURLFromOrigin('https://[::1]:8443')).toBe('wss://[::1]:8443/ws')
  })
})
