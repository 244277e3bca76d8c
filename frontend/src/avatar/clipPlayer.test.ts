import { AnimationClip, NumberKeyframeTrack, Object3D } from 'three'
import { describe, expect, it } from 'vitest'
import { ClipPlayer, clipDataset, type ClipRequest } from './clipPlayer'

/** A clip that moves the "bone" along x from 0 to its duration, one unit a second. */
function slide(name: string, duration: number): AnimationClip {
  return new AnimationClip(name, duration, [new NumberKeyframeTrack('bone.position[x]', [0, duration], [0, duration])])
}

const clips: Record<string, AnimationClip> = {
  '/emotes/wave.glb': slide('wave', 2.5),
  '/emotes/dance.glb': slide('dance', 4),
  '/emotes/idle.glb': slide('idle', 5),
}

function setup() {
  const root = new Object3D()
  const bone = new Object3D()
  bone.name = 'bone'
  root.add(bone)
  const gates = new Map<string, () => void>()
  const player = new ClipPlayer(root, async (url) => {
    await new Promise<void>((res) => (gates.has(url) ? gates.set(url, res) : res()))
    const clip = clips[url]
    if (clip === undefined) throw new Error(`no clip ${url}`)
    return clip
  })
  /** Holds the load of url until the returned function is called. */
  const hold = (url: string) => {
    gates.set(url, () => undefined)
    return () => gates.get(url)?.()
  }
  return { player, bone, hold }
}

const req = (id: string, seq: number, loop = false): ClipRequest => ({ id, url: `/emotes/${id}.glb`, loop, seq })

describe('ClipPlayer.shown', () => {
  it('is null, and the dataset empty, before a clip is shown', () => {
    const { player } = setup()
    expect(player.shown).toBeNull()
    expect(clipDataset(player.shown)).toEqual({})
  })

  it('follows the time of an animated clip, which the pose matches', async () => {
    const { player, bone } = setup()
    expect(await player.show(req('wave', 1), false)).toBe(true)
    expect(player.shown).toEqual({ id: 'wave', seq: 1, time: 0, duration: 2.5, still: false })
    player.update(0.5)
    player.update(0.75)
    expect(player.shown?.time).toBeCloseTo(1.25, 6)
    expect(bone.position.x).toBeCloseTo(1.25, 6)
    expect(clipDataset(player.shown)).toEqual({
      clip: 'wave',
      clipSeq: '1',
      clipTime: '1.250',
      clipDuration: '2.500',
      clipMode: 'animated',
    })
  })

  it('counts a loop past its duration while the pose wraps', async () => {
    const { player, bone } = setup()
    await player.show(req('dance', 3, true), false)
    for (let i = 0; i < 45; i++) player.update(0.1)
    expect(player.shown?.time).toBeCloseTo(4.5, 6)
    expect(bone.position.x).toBeCloseTo(0.5, 6)
  })

  it('restarts the time for the next clip', async () => {
    const { player } = setup()
    await player.show(req('wave', 1), false)
    player.update(1)
    await player.show(req('idle', 2, true), false)
    expect(player.shown).toMatchObject({ id: 'idle', seq: 2, time: 0 })
  })

  it('says a still pose is still, sampled at the middle (idle at its start)', async () => {
    const { player, bone } = setup()
    await player.show(req('wave', 1), true)
    expect(player.shown).toEqual({ id: 'wave', seq: 1, time: 1.25, duration: 2.5, still: true })
    expect(bone.position.x).toBeCloseTo(1.25, 6)
    expect(clipDataset(player.shown)).toMatchObject({ clipTime: '1.250', clipMode: 'still' })
    await player.show(req('idle', 2, true), true)
    expect(player.shown).toMatchObject({ id: 'idle', time: 0, still: true })
  })

  it('keeps showing the newest request when an older load finishes late', async () => {
    const { player, hold } = setup()
    const release = hold('/emotes/wave.glb')
    const older = player.show(req('wave', 1), false)
    expect(await player.show(req('dance', 2, true), false)).toBe(true)
    release()
    expect(await older).toBe(false)
    expect(player.shown).toMatchObject({ id: 'dance', seq: 2 })
  })
})
