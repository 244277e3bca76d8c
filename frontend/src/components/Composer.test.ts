import { describe, expect, it } from 'vitest'
import { isSendKey, isStopKey, messageText } from './Composer'

const key = (over: Partial<Parameters<typeof isSendKey>[0]> = {}) => ({ key: 'Enter', shiftKey: false, isComposing: false, keyCode: 13, ...over })

describe('isSendKey', () => {
  it('sends on Enter only', () => {
    expect(isSendKey(key(), false)).toBe(true)
    expect(isSendKey(key({ shiftKey: true }), false)).toBe(false)
    expect(isSendKey(key({ key: 'a', keyCode: 65 }), false)).toBe(false)
  })

  it('never sends the Enter that confirms an IME composition', () => {
    expect(isSendKey(key({ isComposing: true }), false)).toBe(false)
    expect(isSendKey(key({ keyCode: 229 }), false)).toBe(false)
    expect(isSendKey(key(), true)).toBe(false)
  })
})

describe('isStopKey', () => {
  it('stops on Escape, but not on the Escape that cancels an IME composition', () => {
    const esc = { key: 'Escape', isComposing: false, keyCode: 27 }
    expect(isStopKey(esc, false)).toBe(true)
    expect(isStopKey({ ...esc, key: 'Enter', keyCode: 13 }, false)).toBe(false)
    expect(isStopKey({ ...esc, isComposing: true }, false)).toBe(false)
    expect(isStopKey({ ...esc, keyCode: 229 }, false)).toBe(false)
    expect(isStopKey(esc, true)).toBe(false)
  })
})

describe('messageText', () => {
  it('drops leading blank lines and trailing whitespace but keeps indentation', () => {
    expect(messageText('\n  \n    code()\n  more  \n\n')).toBe('    code()\n  more')
    expect(messageText('  hi ')).toBe('  hi')
    expect(messageText(' \n\t\n')).toBe('')
  })
})
