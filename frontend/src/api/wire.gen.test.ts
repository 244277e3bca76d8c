// The generated decoders (wire.gen.ts, written by `go generate ./app` from the Go
// types) against the golden wire file: every example the server sends comes through
// its decoder whole, and a value that is not its shape is refused with the JSON path
// of the first wrong field. One generic check stands for every generated decoder.

import { describe, expect, it } from 'vitest'
import * as wire from './wire.gen'
import goldenFile from './testdata/wire.golden.json'

interface Golden {
  frames: Record<'ws' | 'sse' | 'sse-delta' | 'client', Record<string, unknown[]>>
  shapes: Record<string, unknown[]>
}

const golden = goldenFile as unknown as Golden

type Decoder = (v: unknown) => unknown

/** The generated decoder of a type, by its name. */
function decoderOf(name: string): Decoder {
  const decode = (wire as unknown as Record<string, unknown>)[`decode${name}`]
  if (typeof decode !== 'function') throw new Error(`wire.gen.ts has no decode${name}`)
  return decode as Decoder
}

const sorted = (xs: Iterable<string>): string[] => [...xs].sort()

describe('the generated wire decoders', () => {
  it('know exactly the frame types of the golden file, by route', () => {
    expect(sorted(wire.ServerFrameTypes)).toEqual(sorted(Object.keys(golden.frames.ws)))
    expect(sorted(wire.ChatFrameTypes)).toEqual(sorted(Object.keys(golden.frames.sse)))
    expect(sorted(wire.ClientFrameTypes)).toEqual(sorted(Object.keys(golden.frames.client)))
    expect(sorted(wire.SHAPE_NAMES)).toEqual(sorted(Object.keys(golden.shapes)))
  })

  const routes: [keyof Golden['frames'], Decoder][] = [
    ['ws', wire.decodeServerFrame],
    ['sse', wire.decodeChatFrame],
    ['client', wire.decodeClientFrame],
  ]
  for (const [route, decode] of routes) {
    it(`decode every ${route} frame whole`, () => {
      for (const examples of Object.values(golden.frames[route])) {
        for (const ex of examples) expect(decode(ex)).toEqual(ex)
      }
    })
  }

  it('decode every frame of the delta dialect whole, with the chat stream frames it keeps', () => {
    const frames = { ...golden.frames.sse, ...golden.frames['sse-delta'] }
    expect(sorted(wire.ChatDeltaFrameTypes)).toEqual(sorted(Object.keys(frames)))
    for (const examples of Object.values(frames)) {
      for (const ex of examples) expect(wire.decodeChatDeltaFrame(ex)).toEqual(ex)
    }
  })

  for (const name of wire.SHAPE_NAMES) {
    it(`decode every ${name} whole`, () => {
      for (const ex of golden.shapes[name] ?? []) expect(decoderOf(name)(ex)).toEqual(ex)
    })
  }

  it('leave out fields the type does not have', () => {
    expect(wire.decodeGrant({ ...(golden.shapes.Grant?.[0] as object), extra: 1 })).not.toHaveProperty('extra')
  })

  const approval = golden.shapes.Approval?.[0] as Record<string, unknown>
  const server = golden.shapes.MCPServer?.[0] as { tools: Record<string, unknown>[] }
  const refused: [string, Decoder, unknown, string][] = [
    ['not an object', wire.decodeApproval, [], 'Approval: want an object, have an array'],
    ['a missing required field', wire.decodeApproval, { ...approval, callId: undefined }, 'Approval.callId: want a string, have missing'],
    ['a field of the wrong type', wire.decodeApproval, { ...approval, bases: 'git' }, 'Approval.bases: want an array, have a string'],
    ['a status not of its vocabulary', wire.decodeApproval, { ...approval, status: 'maybe' }, 'Approval.status: want "pending" or "approved" or "denied" or "cancelled", have a string'],
    ['null where null is not sent', wire.decodeApproval, { ...approval, command: null }, 'Approval.command: want a string, have null'],
    ['a wrong element deep inside', wire.decodeMCPServer, { ...server, tools: [{ ...server.tools[0], name: 3 }] }, 'MCPServer.tools[0].name: want a string, have a number'],
    ['a frame type of no frame', wire.decodeServerFrame, { type: 'nope' }, 'ServerFrame.type: unknown type "nope"'],
    ['a frame type named like an Object method', wire.decodeServerFrame, { type: 'toString' }, 'ServerFrame.type: unknown type "toString"'],
    ['a frame without its fields', wire.decodeServerFrame, { type: 'reminder-deleted' }, 'ServerFrame.id: want a string, have missing'],
  ]
  for (const [what, decode, value, message] of refused) {
    it(`refuse ${what}, saying where`, () => {
      expect(() => decode(value)).toThrow(wire.WireDecodeError)
      expect(() => decode(value)).toThrow(message)
    })
  }

  it('give null instead of throwing through decodeOrNull', () => {
    expect(wire.decodeOrNull(wire.decodeGrant, { id: 1 })).toBeNull()
    expect(wire.decodeOrNull(wire.decodeGrant, golden.shapes.Grant?.[0])).toEqual(golden.shapes.Grant?.[0])
  })
})
