// Wire types of the settings API (GET/PUT /api/config, PUT
// /api/permissions/shell, POST /api/agent/restart) and of the /ws frames
// the config watcher sends. Decoders live in configDecode.ts; nothing here
// has behaviour.

import type { ProviderKind } from './chatTypes'
import type { JsonObject } from './json'
import type { AgentStatus } from './statusTypes'

export type ThemeChoice = 'system' | 'light' | 'dark'

/** '' means not chosen: Wisp looks for a local Ollama. */
export type ModelProviderChoice = ProviderKind | ''

/** How a change to a setting takes effect. */
export type ApplyMode = 'hot' | 'restart'

/** The config file's values with defaults filled in; secret keys are never sent. */
export interface WispConfig {
  server: { host: string; port: number; allowedOrigins: string[]; allowedHosts: string[] }
  model: {
    provider: ModelProviderChoice
    baseURL: string
    name: string
    temperature: number
    maxTokens: number
    thinkingBudget: number
  }
  character: { name: string; system: string; bio: string }
  features: { shellEnabled: boolean }
  terminal: { maxConcurrent: number; maxDurationMs: number; cwd: string; notifyLongRuns: boolean }
  autonomy: { enabled: boolean; intervalMs: number; maxPerHour: number; cooldownMs: number }
  ui: { theme: ThemeChoice; notifications: boolean }
  /** openAtLogin: whether the autostart entry is in effect on disk (not only what the file asks). */
  desktop: { openAtLogin: boolean }
  /**
   * The MCP servers as the file declares them, without their env and header
   * values (only their names). Shown and changed through /api/mcp/servers
   * (mcpTypes.ts); kept here as sent, and never patched.
   */
  mcpServers: Record<string, JsonObject>
}

/** One leaf setting ("server.port"). editable=false: only a hand edit of the file changes it. */
export interface ConfigField {
  path: string
  apply: ApplyMode
  secret: boolean
  editable: boolean
  /** How restart reasons name it ("Server port"). */
  label: string
  /** "ms" for a duration. */
  unit?: string
}

/**
 * Where Wisp keeps the secrets of its settings (the model's API key, the API and
 * terminal tokens) in this run: the desktop's keyring, or the config file (mode 0600)
 * when no keyring answered, and why.
 */
export interface SecretStore {
  where: 'keyring' | 'file'
  /** The keyring's service attribute of Wisp's items ("wisp:<config file>"). */
  service: string
  /** Why the file keeps them ('' while the keyring does). */
  reason: string
  /** Secrets the file says the keyring keeps that this run could not read from it. */
  unread: string[]
}

/** GET /api/config (and the answer of PUT /api/config). */
export interface ConfigSnapshot {
  /** The config file. */
  path: string
  config: WispConfig
  /** Whether each secret ("model.apiKey") is set. */
  secrets: Record<string, boolean>
  /** Where the secrets are kept; null from a server that does not say. */
  secretStore: SecretStore | null
  fields: ConfigField[]
  /** Settings the environment or command line overrides for this process: path → variable or flag. */
  overrides: Record<string, string>
  /** Why the file on disk is invalid ('' when it is fine); Wisp keeps the last good settings. */
  configError: string
  pendingRestart: boolean
  pendingRestartReasons: string[]
}

/** A JSON Merge Patch (RFC 7386) of the config: null resets a key to its default (or clears a secret). */
export type MergePatchValue = string | number | boolean | null | string[] | MergePatch
export interface MergePatch {
  [key: string]: MergePatchValue
}

/** PUT /api/permissions/shell */
export interface ShellAccessResult {
  enabled: boolean
  pendingRestart: boolean
  pendingRestartReasons: string[]
}

/** Where the server listens after a restart. */
export interface ServerEndpoint {
  baseURL: string
  wsURL: string
}

/** POST /api/agent/restart */
export interface RestartResult {
  ok: boolean
  status: AgentStatus
  /** Absent only from an older server; then the connection did not change. */
  connection: ServerEndpoint | null
}

/** Restart-only settings changed; reasons lists all that are pending. */
export interface RestartRequiredMessage {
  type: 'restart-required'
  reasons: string[]
}

/** The config file on disk is invalid (a later status frame without configError means it is fixed). */
export interface ConfigErrorMessage {
  type: 'config-error'
  message: string
}

/** Settings changed, by hand or through the API. */
export interface ConfigChangedMessage {
  type: 'config-changed'
  paths: string[]
}
