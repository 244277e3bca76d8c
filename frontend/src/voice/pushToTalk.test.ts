import { describe, expect, it } from 'vitest'
import { isTalkDown, isTalkUp, listenPushToTalk } from './pushToTalk'

const key = (over: Partial<KeyboardEventInit & { code: string }> = {}) => ({
  code: 'Space',
  key: ' ',
  ctrlKey: true,
  metaKey: false,
  altKey: false,
  shiftKey: false,
  repeat: false,
  ...over,
})

describe('push-to-talk keys', () => {
  it('is Ctrl+Space alone', () => {
    expect(isTalkDown(key())).toBe(true)
    expect(isTalkDown(key({ ctrlKey: false }))).toBe(false)
    expect(isTalkDown(key({ shiftKey: true }))).toBe(false)
    expect(isTalkDown(key({ code: 'KeyK', key: 'k' }))).toBe(false)
    expect(isTalkUp({ code: 'Space', key: ' ' })).toBe(true)
    expect(isTalkUp({ code: 'ControlLeft', key: 'Control' })).toBe(true)
    expect(isTalkUp({ code: 'KeyA', key: 'a' })).toBe(false)
  })
})

describe('listenPushToTalk', () => {
  it('starts on the first press, ignores repeats, stops on release or when the window loses focus', () => {
    const target = new EventTarget()
    const log: string[] = []
    let usable = true
    const off = listenPushToTalk(target as unknown as Window, {
      start: () => log.push('start'),
      stop: () => log.push('stop'),
      usable: () => usable,
    })
    const fire = (type: string, over: Record<string, unknown> = {}) => {
      const e = Object.assign(new Event(type, { cancelable: true }), key(), over)
      target.dispatchEvent(e)
      return e
    }
    const down = fire('keydown')
    expect(down.defaultPrevented).toBe(true)
    fire('keydown', { repeat: true })
    fire('keyup', { code: 'ControlLeft', key: 'Control' })
    fire('keydown')
    target.dispatchEvent(new Event('blur'))
    fire('keyup')
    usable = false
    fire('keydown')
    off()
    usable = true
    fire('keydown')
    expect(log).toEqual(['start', 'stop', 'start', 'stop'])
  })

  it('leaves Ctrl+Space alone in the terminal, and while the mic cannot be used', () => {
    class InTerminal extends EventTarget {
      closest(selector: string): unknown {
        return selector === '.xterm' ? this : null
      }
    }
    const log: string[] = []
    const fire = (target: EventTarget) => {
      const e = Object.assign(new Event('keydown', { cancelable: true }), key())
      target.dispatchEvent(e)
      return e
    }
    const terminal = new InTerminal()
    const offTerminal = listenPushToTalk(terminal as unknown as Window, { start: () => log.push('start'), stop: () => undefined, usable: () => true })
    expect(fire(terminal).defaultPrevented).toBe(false)
    offTerminal()
    const page = new EventTarget()
    const offPage = listenPushToTalk(page as unknown as Window, { start: () => log.push('start'), stop: () => undefined, usable: () => false })
    expect(fire(page).defaultPrevented).toBe(false)
    offPage()
    expect(log).toEqual([])
  })
})
