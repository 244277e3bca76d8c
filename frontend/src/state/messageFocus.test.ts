import { describe, expect, it } from 'vitest'
import { MessageFocus } from './messageFocus'

describe('MessageFocus', () => {
  it('holds the last message asked for until it is served', () => {
    const focus = new MessageFocus()
    let heard = 0
    const stop = focus.subscribe(() => heard++)
    expect(focus.get()).toBeNull()
    focus.show('c1', 'm1')
    const first = focus.get()
    expect(first).toMatchObject({ conversationId: 'c1', messageId: 'm1' })
    focus.show('c1', 'm1') // chosen again: a new request for the same message
    const second = focus.get()
    expect(second?.seq).not.toBe(first?.seq)
    focus.done(first!) // the old request served late: the new one stays
    expect(focus.get()).toBe(second)
    focus.done(second!)
    expect(focus.get()).toBeNull()
    expect(heard).toBe(3)
    stop()
    focus.show('c2', 'm2')
    expect(heard).toBe(3)
  })
})
