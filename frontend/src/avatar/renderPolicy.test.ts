import { describe, expect, it } from 'vitest'
import { HOLD_CHECK_FPS, IDLE_FPS, SETTLE_MS, nextFrame, rateOf, type RenderInputs } from './renderPolicy'

const idle: RenderInputs = {
  playing: false,
  sinceEmoteEnded: Infinity,
  visible: true,
  onScreen: true,
  sinceLastFrame: 10,
  holding: false,
  typing: false,
  still: false,
  face: 'rest',
}
const idleInterval = 1000 / IDLE_FPS

describe('nextFrame', () => {
  it.each<[string, Partial<RenderInputs>, ReturnType<typeof nextFrame>]>([
    ['idle: the rest of the idle interval', {}, { kind: 'after', ms: idleInterval - 10 }],
    ['idle, overdue: at once on the timer', { sinceLastFrame: 500 }, { kind: 'after', ms: 0 }],
    ['idle, pose held still: look again later', { holding: true }, { kind: 'after', ms: 1000 / HOLD_CHECK_FPS - 10 }],
    ['an emote plays, whatever the idle pose did', { playing: true, holding: true }, { kind: 'display' }],
    ['an emote plays: the next display refresh', { playing: true }, { kind: 'display' }],
    ['an emote just ended: display rate while it settles', { sinceEmoteEnded: SETTLE_MS - 1 }, { kind: 'display' }],
    ['settled: idle again', { sinceEmoteEnded: SETTLE_MS }, { kind: 'after', ms: idleInterval - 10 }],
    ['nothing drawn since (re)starting: one frame at once', { sinceLastFrame: null }, { kind: 'now' }],
    ['hidden page: nothing', { visible: false }, { kind: 'none' }],
    ['hidden page, even with an emote playing', { visible: false, playing: true, sinceLastFrame: null }, { kind: 'none' }],
    ['off screen: nothing', { onScreen: false, playing: true }, { kind: 'none' }],
    ['the user types: the idle pose holds', { typing: true }, { kind: 'none' }],
    ['the user types: an emote still plays', { typing: true, playing: true }, { kind: 'display' }],
    ['speech plays: the display rate, for the mouth', { face: 'speaking' }, { kind: 'display' }],
    ['speech plays while the user types: the mouth still moves', { face: 'speaking', typing: true }, { kind: 'display' }],
    ['speech plays on a hidden page: nothing', { face: 'speaking', visible: false }, { kind: 'none' }],
    ['speech plays off screen: nothing', { face: 'speaking', onScreen: false }, { kind: 'none' }],
    ['the face moves: idle-rate frames, even when the pose held', { face: 'moving', holding: true }, { kind: 'after', ms: idleInterval - 10 }],
    ['the face moves while the user types: held', { face: 'moving', typing: true }, { kind: 'none' }],
    ['a still pose: nothing', { still: true }, { kind: 'none' }],
    ['a still pose: no blinks or glances either', { still: true, face: 'moving' }, { kind: 'none' }],
    ['a still pose with speech: the mouth moves', { still: true, face: 'speaking' }, { kind: 'display' }],
    ['a still pose, speech starts: one frame at once', { still: true, face: 'speaking', sinceLastFrame: null }, { kind: 'now' }],
  ])('%s', (_, change, want) => {
    expect(nextFrame({ ...idle, ...change })).toEqual(want)
  })

  it('follows the idle rate it is given', () => {
    expect(nextFrame({ ...idle, sinceLastFrame: 0 }, 4)).toEqual({ kind: 'after', ms: 250 })
    // A held pose is never looked at more often than the idle rate.
    expect(nextFrame({ ...idle, sinceLastFrame: 0, holding: true }, 2)).toEqual({ kind: 'after', ms: 500 })
  })

  it('names the rate of each decision', () => {
    expect(rateOf({ kind: 'none' })).toBe('stopped')
    expect(rateOf({ kind: 'after', ms: 5 })).toBe('idle')
    expect(rateOf({ kind: 'display' })).toBe('display')
  })
})
