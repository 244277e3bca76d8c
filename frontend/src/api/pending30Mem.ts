// PENDING (issue 30, memory): the wire types of app/wire/memory.go and the
// approval's new kind "memory" with its text, written by hand as
// internal/tsgen writes them into wire.gen.ts, until the backend is merged and
// `go generate ./app` writes them there. Then: delete this file, and import
// Approval, ApprovalKind, ApprovalChanged, Memory, MemoryVersion,
// MemoryHistory, MemoryUpdated and their decoders from './wire.gen' (the
// importers: approvalTypes.ts, approvalDecode.ts, memoryTypes.ts,
// memoryDecode.ts).

import {
  WireDecodeError,
  decodeApprovalDecision,
  decodeApprovalStatus,
  decodeToolAnnotations,
  type ApprovalDecision,
  type ApprovalStatus,
  type ToolAnnotations,
} from './wire.gen'

function _what(v: unknown): string {
  if (v === undefined) return 'missing'
  if (v === null) return 'null'
  return Array.isArray(v) ? 'an array' : `a ${typeof v}`
}

function _fail(path: string, want: string, v: unknown): never {
  throw new WireDecodeError(path, `want ${want}, have ${_what(v)}`)
}

function _obj(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) _fail(path, 'an object', v)
  return v as Record<string, unknown>
}

function _str(v: unknown, path: string): string {
  return typeof v === 'string' ? v : _fail(path, 'a string', v)
}

function _num(v: unknown, path: string): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : _fail(path, 'a number', v)
}

function _present(v: unknown, path: string): unknown {
  return v === undefined ? _fail(path, 'a value', v) : v
}

function _oneOf<const T extends string>(v: unknown, values: readonly T[], path: string): T {
  if (typeof v === 'string' && (values as readonly string[]).includes(v)) return v as T
  return _fail(path, values.map((x) => JSON.stringify(x)).join(' or '), v)
}

function _nullable<T>(v: unknown, path: string, decode: (x: unknown, p: string) => T): T | null {
  return v === null ? null : decode(v, path)
}

function _arr<T>(v: unknown, path: string, decode: (x: unknown, p: string) => T): T[] {
  if (!Array.isArray(v)) _fail(path, 'an array', v)
  return v.map((x, i) => decode(x, `${path}[${i}]`))
}

export type ApprovalKind = 'shell' | 'mcp' | 'memory'
export const ApprovalKindValues: readonly ApprovalKind[] = ['shell', 'mcp', 'memory']
export function decodeApprovalKind(v: unknown, path = 'ApprovalKind'): ApprovalKind {
  return _oneOf(v, ApprovalKindValues, path)
}

export interface ApprovalChanged {
  type: 'approval-requested' | 'approval-decided'
  approval: Approval
}
export function decodeApprovalChanged(v: unknown, path = 'ApprovalChanged'): ApprovalChanged {
  const o = _obj(v, path)
  const out: ApprovalChanged = {
    type: _oneOf(o.type, ['approval-requested', 'approval-decided'] as const, path + '.type'),
    approval: decodeApproval(o.approval, path + '.approval'),
  }
  return out
}

export interface Approval {
  id: string
  runId: string
  conversationId: string
  messageId?: string
  callId: string
  toolName: string
  command: string
  cwd: string
  reason: string
  bases: string[]
  grantable: string[]
  alwaysAsk: string[]
  kind: ApprovalKind
  server: string
  tool: string
  arguments: unknown
  annotations: ToolAnnotations | null
  toolTitle: string
  toolDescription: string
  text: string
  status: ApprovalStatus
  decision: ApprovalDecision | null
  note: string
  createdAt: string
  decidedAt: string | null
}
export function decodeApproval(v: unknown, path = 'Approval'): Approval {
  const o = _obj(v, path)
  const out: Approval = {
    id: _str(o.id, path + '.id'),
    runId: _str(o.runId, path + '.runId'),
    conversationId: _str(o.conversationId, path + '.conversationId'),
    callId: _str(o.callId, path + '.callId'),
    toolName: _str(o.toolName, path + '.toolName'),
    command: _str(o.command, path + '.command'),
    cwd: _str(o.cwd, path + '.cwd'),
    reason: _str(o.reason, path + '.reason'),
    bases: _arr(o.bases, path + '.bases', (x, p) => _str(x, p)),
    grantable: _arr(o.grantable, path + '.grantable', (x, p) => _str(x, p)),
    alwaysAsk: _arr(o.alwaysAsk, path + '.alwaysAsk', (x, p) => _str(x, p)),
    kind: decodeApprovalKind(o.kind, path + '.kind'),
    server: _str(o.server, path + '.server'),
    tool: _str(o.tool, path + '.tool'),
    arguments: _present(o.arguments, path + '.arguments'),
    annotations: _nullable(o.annotations, path + '.annotations', (x, p) => decodeToolAnnotations(x, p)),
    toolTitle: _str(o.toolTitle, path + '.toolTitle'),
    toolDescription: _str(o.toolDescription, path + '.toolDescription'),
    text: _str(o.text, path + '.text'),
    status: decodeApprovalStatus(o.status, path + '.status'),
    decision: _nullable(o.decision, path + '.decision', (x, p) => decodeApprovalDecision(x, p)),
    note: _str(o.note, path + '.note'),
    createdAt: _str(o.createdAt, path + '.createdAt'),
    decidedAt: _nullable(o.decidedAt, path + '.decidedAt', (x, p) => _str(x, p)),
  }
  if (o.messageId !== undefined) out.messageId = _str(o.messageId, path + '.messageId')
  return out
}

export interface ApprovalList {
  approvals: Approval[]
}
export function decodeApprovalList(v: unknown, path = 'ApprovalList'): ApprovalList {
  const o = _obj(v, path)
  const out: ApprovalList = {
    approvals: _arr(o.approvals, path + '.approvals', (x, p) => decodeApproval(x, p)),
  }
  return out
}

export interface ApprovalBody {
  approval: Approval
}
export function decodeApprovalBody(v: unknown, path = 'ApprovalBody'): ApprovalBody {
  const o = _obj(v, path)
  const out: ApprovalBody = {
    approval: decodeApproval(o.approval, path + '.approval'),
  }
  return out
}

export interface Memory {
  text: string
  updatedAt: string
  version: number
  maxBytes: number
  character: string
}
export function decodeMemory(v: unknown, path = 'Memory'): Memory {
  const o = _obj(v, path)
  const out: Memory = {
    text: _str(o.text, path + '.text'),
    updatedAt: _str(o.updatedAt, path + '.updatedAt'),
    version: _num(o.version, path + '.version'),
    maxBytes: _num(o.maxBytes, path + '.maxBytes'),
    character: _str(o.character, path + '.character'),
  }
  return out
}

export interface MemoryVersion {
  version: number
  text: string
  updatedAt: string
  source: string
}
export function decodeMemoryVersion(v: unknown, path = 'MemoryVersion'): MemoryVersion {
  const o = _obj(v, path)
  const out: MemoryVersion = {
    version: _num(o.version, path + '.version'),
    text: _str(o.text, path + '.text'),
    updatedAt: _str(o.updatedAt, path + '.updatedAt'),
    source: _str(o.source, path + '.source'),
  }
  return out
}

export interface MemoryHistory {
  versions: MemoryVersion[]
}
export function decodeMemoryHistory(v: unknown, path = 'MemoryHistory'): MemoryHistory {
  const o = _obj(v, path)
  const out: MemoryHistory = {
    versions: _arr(o.versions, path + '.versions', (x, p) => decodeMemoryVersion(x, p)),
  }
  return out
}

export interface MemoryUpdated {
  type: 'memory-updated'
  memory: Memory
}
export function decodeMemoryUpdated(v: unknown, path = 'MemoryUpdated'): MemoryUpdated {
  const o = _obj(v, path)
  const out: MemoryUpdated = {
    type: _oneOf(o.type, ['memory-updated'] as const, path + '.type'),
    memory: decodeMemory(o.memory, path + '.memory'),
  }
  return out
}
