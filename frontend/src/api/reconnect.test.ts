import { describe, expect, it } from 'vitest'
import { readTokenFragment, tokenFragment } from './connection'
import { CLOSE_SERVICE_RESTART, planAfterRestart, reresolveOnClose, sameServer } from './reconnect'

const here = { pathname: '/', search: '', hash: '#/c/conv%201' }
const moved = { baseURL: 'http://127.0.0.1:3000', wsURL: 'ws://127.0.0.1:3000/ws' }

describe('planAfterRestart', () => {
  it('stays when the server did not move or did not say', () => {
    expect(planAfterRestart('browser', 'http://127.0.0.1:3000', moved, here)).toEqual({ kind: 'stay' })
    expect(planAfterRestart('browser', 'http://127.0.0.1:3000/', { ...moved, baseURL: 'http://127.0.0.1:3000/' }, here)).toEqual({
      kind: 'stay',
    })
    expect(planAfterRestart('desktop', 'http://127.0.0.1:2138', null, here)).toEqual({ kind: 'stay' })
  })

  it('takes a browser to the new origin with its path, query and hash', () => {
    expect(planAfterRestart('browser', 'http://127.0.0.1:2138', moved, { pathname: '/app/', search: '?x=1', hash: '#/c/a' })).toEqual({
      kind: 'navigate',
      url: 'http://127.0.0.1:3000/app/?x=1#/c/a',
    })
    expect(planAfterRestart('browser', 'http://127.0.0.1:2138', moved, here)).toEqual({
      kind: 'navigate',
      url: 'http://127.0.0.1:3000/#/c/conv%201',
    })
  })

  it('carries the API token along in the fragment, with the route after it', () => {
    const plan = planAfterRestart('browser', 'http://127.0.0.1:2138', moved, here, 'tok')
    expect(plan).toEqual({ kind: 'navigate', url: `http://127.0.0.1:3000/${tokenFragment('tok', here.hash)}` })
    expect(readTokenFragment(new URL(plan.kind === 'navigate' ? plan.url : '').hash)).toEqual({ token: 'tok', route: here.hash })
    expect(planAfterRestart('desktop', 'http://127.0.0.1:2138', moved, here, 'tok')).toEqual({ kind: 'reresolve' })
  })

  it('has a desktop window look its connection up again', () => {
    expect(planAfterRestart('desktop', 'http://127.0.0.1:2138', moved, here)).toEqual({ kind: 'reresolve' })
  })

  it('treats a new host or scheme as a move too', () => {
    const lan = { baseURL: 'http://192.168.1.5:3000', wsURL: 'ws://192.168.1.5:3000/ws' }
    expect(planAfterRestart('browser', 'http://127.0.0.1:3000', lan, here).kind).toBe('navigate')
    expect(planAfterRestart('desktop', 'https://127.0.0.1:3000', moved, here).kind).toBe('reresolve')
  })
})

describe('reresolveOnClose', () => {
  it('re-resolves only desktop windows, only on a service restart', () => {
    expect(reresolveOnClose('desktop', CLOSE_SERVICE_RESTART)).toBe(true)
    expect(reresolveOnClose('browser', CLOSE_SERVICE_RESTART)).toBe(false)
    expect(reresolveOnClose(null, CLOSE_SERVICE_RESTART)).toBe(false)
    expect(reresolveOnClose('desktop', 1006)).toBe(false)
  })
})

describe('sameServer', () => {
  it('compares origins and never matches garbage', () => {
    expect(sameServer('http://a:1', 'http://a:1/')).toBe(true)
    expect(sameServer('http://a:1', 'http://a:2')).toBe(false)
    expect(sameServer('nope', 'nope')).toBe(false)
  })
})
