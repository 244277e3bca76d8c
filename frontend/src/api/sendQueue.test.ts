import { describe, expect, it, vi } from 'vitest'
import { SendQueue, SEND_QUEUE_CAPACITY } from './sendQueue'
import type { ClientMessage } from './types'

const conv = (id: string | null): ClientMessage => ({ type: 'active-conversation', conversationId: id })
const ping: ClientMessage = { type: 'ping' }

describe('SendQueue', () => {
  it('flushes in FIFO order and empties', () => {
    const q = new SendQueue()
    q.push(ping)
    q.push(conv('a'))
    expect(q.drain()).toEqual([ping, conv('a')])
    expect(q.size).toBe(0)
    expect(q.drain()).toEqual([])
  })

  it('holds 32 messages and drops the oldest with a warning naming its type', () => {
    expect(SEND_QUEUE_CAPACITY).toBe(32)
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    try {
      const q = new SendQueue()
      q.push(conv('first'))
      for (let i = 0; i < 31; i++) q.push(ping)
      expect(q.size).toBe(32)
      expect(warn).not.toHaveBeenCalled()

      const dropped = q.push(ping)
      expect(dropped).toEqual(conv('first'))
      expect(q.size).toBe(32)
      expect(warn).toHaveBeenCalledTimes(1)
      expect(String(warn.mock.calls[0]?.[0])).toContain('active-conversation')
      expect(q.drain().every((m) => m.type === 'ping')).toBe(true)
    } finally {
      warn.mockRestore()
    }
  })

  it('reports drops to an injected reporter', () => {
    const dropped: ClientMessage[] = []
    const q = new SendQueue(2, (m) => dropped.push(m))
    q.push(conv('a'))
    q.push(ping)
    q.push(ping)
    expect(dropped).toEqual([conv('a')])
  })

  it('keeps only the latest active-conversation, moved behind earlier messages', () => {
    const q = new SendQueue()
    q.push(conv('a'))
    q.push(ping)
    q.push(conv('b'))
    q.push(conv(null))
    expect(q.drain()).toEqual([ping, conv(null)])
  })

  it('does not count a replaced active-conversation against the capacity', () => {
    const dropped: ClientMessage[] = []
    const q = new SendQueue(3, (m) => dropped.push(m))
    q.push(ping)
    q.push(ping)
    q.push(conv('a'))
    q.push(conv('b'))
    expect(dropped).toEqual([])
    expect(q.drain()).toEqual([ping, ping, conv('b')])
  })

  it('requeues unsent messages in front of newer ones', () => {
    const q = new SendQueue()
    q.push(conv('new'))
    q.requeueFront([ping, conv('old')])
    expect(q.drain()).toEqual([ping, conv('new')])
  })
})

describe('SendQueue terminal frames', () => {
  it('keeps every keystroke but only the latest resize per run', () => {
    const q = new SendQueue()
    const resize = (runId: string, cols: number): ClientMessage => ({ type: 'terminal-resize', runId, cols, rows: 24 })
    const input = (data: string): ClientMessage => ({ type: 'terminal-input', runId: 'a', data })
    q.push(input('h'))
    q.push(resize('a', 80))
    q.push(resize('b', 90))
    q.push(input('i'))
    q.push(resize('a', 100))
    expect(q.drain()).toEqual([input('h'), resize('b', 90), input('i'), resize('a', 100)])
  })
})
