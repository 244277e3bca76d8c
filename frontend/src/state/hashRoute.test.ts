import { describe, expect, it } from 'vitest'
import { conversationFromHash, hashForConversation } from './hashRoute'

describe('hash route', () => {
  it('round-trips conversation ids, including odd characters', () => {
    for (const id of ['c1', 'conv-8f2e', 'a b/c#d', 'é']) expect(conversationFromHash(hashForConversation(id))).toBe(id)
    expect(hashForConversation('a b')).toBe('#/c/a%20b')
  })

  it('reads no conversation from other hashes', () => {
    for (const h of ['', '#', '#/', '#/c/', '#/x/c1', '#/c/%E0%A4%A']) expect(conversationFromHash(h)).toBeNull()
    expect(hashForConversation(null)).toBe('#/')
  })
})
