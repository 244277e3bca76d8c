// The wire contract, checked from this side: testdata/wire.golden.json is written by
// the Go test TestWireGolden (go generate ./app) from the server's frame catalog and
// shapes, with every field of every shape used. Every example must come through the
// decoder the UI uses with nothing lost, and the frame types this client knows must be
// exactly the catalog's, so Go and TypeScript cannot drift apart unnoticed.

import { describe, expect, it } from 'vitest'
import { decodeApproval, decodeGrant } from './approvalDecode'
import { decodeImportResult } from './archiveDecode'
import { decodeMcpServer } from './mcpDecode'
import { decodeMemory, decodeMemoryHistory } from './memoryDecode'
import { CHAT_FRAME_TYPES, decodeChatFrame, decodeConversation, decodeDisplayMessage, decodeMessage, decodeProvider, decodeRun, decodeSendResult, decodeSummary, decodeTurnHeartbeat } from './chatDecode'
import { decodeContextInfo } from './contextTypes'
import { decodeConfigSnapshot, decodeSecretStore, decodeShellAccess } from './configDecode'
import { decodeServerMessage, decodeStatus, KNOWN_SERVER_MESSAGE_TYPES } from './decode'
import { decodeEmoteCatalog } from './emoteDecode'
import { decodeAssistantPayload, decodeAutonomy, decodeAutonomyPayload, decodeReminder } from './proactiveDecode'
import { decodeRestartResult } from './restartDecode'
import { decodeSearchResults } from './searchDecode'
import { decodeTaskBody } from './taskDecode'
import * as wire from './wire.gen'
import { decodeTerminalRunDetail, decodeTerminalRunList } from './terminalDecode'
import { CLIENT_MESSAGE_TYPES } from './types'
import type { JsonObject } from './json'
import goldenFile from './testdata/wire.golden.json'

interface Golden {
  frames: {
    ws: Record<string, JsonObject[]>
    /** Chat SSE in the default dialect. */
    sse: Record<string, JsonObject[]>
    /** Chat SSE in the delta dialect (the one the UI asks for): the frames that differ from sse's. */
    'sse-delta': Record<string, JsonObject[]>
    client: Record<string, JsonObject[]>
  }
  shapes: Record<string, unknown[]>
}

const golden = goldenFile as unknown as Golden

/**
 * Fields the UI deliberately does not keep, by frame type or shape name, each with its
 * reason. A field listed here that the golden file does not have fails the test, so
 * the list cannot go stale.
 */
const IGNORED: Record<string, Record<string, string>> = {
  TurnHeartbeat: {
    to: 'always "chat" for a chat turn; the activity line does not show it',
    hasMedia: 'Wisp sends no media yet',
  },
}

/** A shape the UI has no decoder for, with the reason. */
const NOT_DECODED: Record<string, string> = {
  TerminalResult: 'the captured-output answer of POST /api/terminal/run; the UI never asks for captured output',
  RunState:
    "GET /api/runs/{id}/state (seed 001's state) is for other clients following a run; the UI shows an action's progress through its callbacks",
  Snapshot:
    "GET /api/conversations/{id}/snapshot (seed 001) is for other clients: Wisp's UI reloads a conversation from its messages and display messages and resumes a run from the sequence numbers it saw",
}

const SHAPE_DECODERS: Record<string, (v: unknown) => unknown> = {
  Conversation: decodeConversation,
  Message: decodeMessage,
  DisplayMessage: decodeDisplayMessage,
  RunInfo: decodeRun,
  SendResult: decodeSendResult,
  Reminder: decodeReminder,
  Task: (v) => decodeTaskBody({ task: v }),
  AutonomyState: decodeAutonomy,
  Status: decodeStatus,
  TurnHeartbeat: (v) => decodeTurnHeartbeat(v as JsonObject, 0),
  AutonomyPayload: (v) => decodeAutonomyPayload(v as JsonObject),
  AssistantPayload: (v) => decodeAssistantPayload(v as JsonObject),
  ConfigView: decodeConfigSnapshot,
  FileEdit: wire.decodeFileEdit,
  SecretStore: decodeSecretStore,
  ShellView: decodeShellAccess,
  RestartResult: decodeRestartResult,
  ProviderInfo: decodeProvider,
  TerminalRuns: decodeTerminalRunList,
  TerminalSnapshot: decodeTerminalRunDetail,
  EmoteList: decodeEmoteCatalog,
  Approval: decodeApproval,
  Grant: decodeGrant,
  MCPServer: decodeMcpServer,
  ImportResult: decodeImportResult,
  SearchResults: decodeSearchResults,
  Memory: decodeMemory,
  MemoryHistory: (v) => {
    const versions = decodeMemoryHistory(v)
    return versions === null ? null : { versions }
  },
  ConversationUsage: wire.decodeConversationUsage,
  UsageReport: wire.decodeUsageReport,
  Price: wire.decodePrice,
  ContextInfo: decodeContextInfo,
  Summary: decodeSummary,
}

/** example without the ignored fields of name (top-level keys). */
function expected(name: string, example: unknown): unknown {
  const ignored = IGNORED[name]
  if (ignored === undefined || typeof example !== 'object' || example === null) return example
  const out: JsonObject = { ...(example as JsonObject) }
  for (const key of Object.keys(ignored)) delete out[key]
  return out
}

const sorted = (xs: Iterable<string>): string[] => [...xs].sort()

describe('the golden wire file', () => {
  it('has exactly the /ws frame types this client knows', () => {
    const ws = Object.keys(golden.frames.ws)
    expect(sorted(ws)).toEqual(sorted(KNOWN_SERVER_MESSAGE_TYPES))
  })

  it('has exactly the chat SSE frame types this client knows, in both dialects', () => {
    const types = new Set([...Object.keys(golden.frames.sse), ...Object.keys(golden.frames['sse-delta'])])
    expect(sorted(types)).toEqual(sorted(CHAT_FRAME_TYPES))
  })

  it('has the delta dialect frames the UI relies on: deltas by segment and the reply so far', () => {
    const delta = golden.frames['sse-delta']
    expect(sorted(Object.keys(delta))).toEqual(['reply', 'token'])
    expect(delta.token?.every((f) => !('fullText' in f))).toBe(true)
    expect(delta.token?.some((f) => 'segment' in f)).toBe(true)
  })

  it('has exactly the client frames this client sends', () => {
    expect(sorted(Object.keys(golden.frames.client))).toEqual(sorted(CLIENT_MESSAGE_TYPES))
  })

  for (const [type, examples] of Object.entries(golden.frames.ws)) {
    it(`decodes every /ws ${type} frame whole`, () => {
      for (const ex of examples) expect(decodeServerMessage(JSON.stringify(ex))).toEqual(expected(type, ex))
    })
  }

  for (const [type, examples] of Object.entries(golden.frames.sse)) {
    it(`decodes every SSE ${type} frame whole`, () => {
      for (const ex of examples) expect(decodeChatFrame(ex)).toEqual(expected(type, ex))
    })
  }

  for (const [type, examples] of Object.entries(golden.frames['sse-delta'])) {
    it(`decodes every delta-dialect SSE ${type} frame whole`, () => {
      for (const ex of examples) expect(decodeChatFrame(ex)).toEqual(expected(type, ex))
    })
  }

  it('maps every shape to the decoder the UI uses, or says why not', () => {
    for (const name of Object.keys(golden.shapes)) {
      expect(name in SHAPE_DECODERS || name in NOT_DECODED, `shape ${name} has no decoder`).toBe(true)
    }
    for (const name of [...Object.keys(SHAPE_DECODERS), ...Object.keys(NOT_DECODED)]) {
      expect(name in golden.shapes, `${name} is not in the golden file`).toBe(true)
    }
  })

  for (const [name, decode] of Object.entries(SHAPE_DECODERS)) {
    it(`decodes every ${name} whole`, () => {
      for (const ex of golden.shapes[name] ?? []) expect(decode(ex)).toEqual(expected(name, ex))
    })
  }

  it('ignores only fields the server sends', () => {
    for (const [name, fields] of Object.entries(IGNORED)) {
      const examples = [
        ...(golden.shapes[name] ?? []),
        ...(golden.frames.ws[name] ?? []),
        ...(golden.frames.sse[name] ?? []),
        ...(golden.frames['sse-delta'][name] ?? []),
      ]
      for (const field of Object.keys(fields)) {
        expect(
          examples.some((ex) => typeof ex === 'object' && ex !== null && field in ex),
          `${name}.${field} is ignored but never sent`,
        ).toBe(true)
      }
    }
  })
})
