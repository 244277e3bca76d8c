import { BufferGeometry, Float32BufferAttribute, Group, Mesh } from 'three'
import { describe, expect, it } from 'vitest'
import { MorphFace } from './faceTargets'

/** A mesh with morph targets of these names (as GLTFLoader makes from extras.targetNames). */
function faceMesh(names: string[]): Mesh {
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new Float32BufferAttribute([0, 0, 0, 1, 0, 0, 0, 1, 0], 3))
  geometry.morphAttributes.position = names.map(() => new Float32BufferAttribute([0, 0, 0, 0, 0, 0, 0, 0, 0], 3))
  const mesh = new Mesh(geometry)
  mesh.updateMorphTargets()
  mesh.morphTargetDictionary = Object.fromEntries(names.map((n, i) => [n, i]))
  return mesh
}

describe('MorphFace', () => {
  it('sets a preset on every mesh that has it and skips the names a model lacks', () => {
    const root = new Group()
    const mouth = faceMesh(['aa', 'oh', 'blink'])
    const eyes = faceMesh(['blink', 'lookLeft'])
    root.add(mouth, eyes, new Mesh(new BufferGeometry()))
    const face = new MorphFace(root)
    expect(face.names.sort()).toEqual(['aa', 'blink', 'lookLeft', 'oh'])
    face.set('blink', 0.75)
    face.set('aa', 0.5)
    face.set('happy', 1) // not in this model: nothing happens
    expect(mouth.morphTargetInfluences).toEqual([0.5, 0, 0.75])
    expect(eyes.morphTargetInfluences).toEqual([0.75, 0])
  })
})
