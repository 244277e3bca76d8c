import { describe, expect, it } from 'vitest'
import { DesktopMic, desktopMicBindings } from './desktopMic'
import { micEvents } from './fakeAudio.test-util'

function fakeWails() {
  const handlers = new Map<string, (d: unknown) => void>()
  const calls: string[] = []
  const win = {
    go: {
      desktop: {
        Desktop: {
          MicStart: async (handsFree: boolean) => {
            calls.push(`start:${handsFree}`)
          },
          MicStop: async () => {
            calls.push('stop')
            return 'from the desktop'
          },
        },
      },
    },
    runtime: {
      EventsOn: (name: string, fn: (d: unknown) => void) => {
        handlers.set(name, fn)
        return () => handlers.delete(name)
      },
    },
  }
  return { win, handlers, calls, emit: (name: string, ...args: unknown[]) => handlers.get(name)?.(args) }
}

describe('desktopMicBindings', () => {
  it('finds the bindings in the desktop window, and nothing in a browser', () => {
    expect(desktopMicBindings(fakeWails().win)).not.toBeNull()
    expect(desktopMicBindings({})).toBeNull()
    expect(desktopMicBindings({ go: { desktop: { Desktop: { PickFiles: () => null } } }, runtime: { EventsOn: () => () => undefined } })).toBeNull()
  })
})

describe('DesktopMic', () => {
  it('drives MicStart/MicStop and hands on the events of the Go capture', async () => {
    const w = fakeWails()
    const b = desktopMicBindings(w.win)!
    const mic = new DesktopMic(b.mic, b.events)
    const { got, events } = micEvents()
    await mic.start(true, events)
    w.emit('mic:level', { level: 0.3 })
    w.emit('mic:level', { level: 7 })
    w.emit('mic:speech-start', {})
    w.emit('mic:transcript', { text: 'turn on the lights' })
    w.emit('mic:transcript', { text: ' ' })
    expect(got).toMatchObject({ levels: [0.3, 1], starts: 1, utterances: ['turn on the lights'] })
    expect(await mic.stop()).toBe('from the desktop')
    expect(w.calls).toEqual(['start:true', 'stop'])
    expect(w.handlers.size).toBe(0)
  })

  it('ends when the Go side says the mic went off with an error', async () => {
    const w = fakeWails()
    const b = desktopMicBindings(w.win)!
    const mic = new DesktopMic(b.mic, b.events)
    const { got, events } = micEvents()
    await mic.start(false, events)
    w.emit('mic:state', { on: true, handsFree: false })
    w.emit('mic:state', { on: true, handsFree: true, error: 'an utterance was dropped: speech-to-text is behind' })
    expect(got.ended).toEqual([])
    expect(got.problems).toEqual(['an utterance was dropped: speech-to-text is behind'])
    w.emit('mic:state', { on: false, handsFree: false, error: 'no capture tool: install pipewire' })
    expect(got.ended).toEqual(['no capture tool: install pipewire'])
    expect(w.handlers.size).toBe(0)
    expect(await mic.stop()).toBeNull()
  })
})
